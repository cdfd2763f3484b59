import { isAlias, isCollection, isMap, isPair, isScalar, isSeq, parseDocument, Scalar, visit, type Document, type Node as YamlNode, type Pair, type YAMLError } from 'yaml';
import { cpuClockMs, prescan, FRONTMATTER_LIMITS, measureTree, type FrontmatterLimits } from './parseLimits';
import { TextIndex } from './textIndex';
import type { FrontmatterBlock, FrontmatterField, ParsedSkillFile, ScalarStyle, SkillDiagnostic, StrictYamlIssue } from './skillTypes';

const DELIMITER = /^---[ \t]*$/;

/**
 * Parses the text of a SKILL.md: splits frontmatter from body (only the first `---` pair counts,
 * so `---` rules in the body are safe), parses the YAML with every scalar kept as the string written
 * (`version: 1.0` stays "1.0"), and records the source range of every key and value.
 * Never throws: problems come back as diagnostics with severity `error` (the validator may soften them).
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const index = new TextIndex(text);
  const diagnostics: SkillDiagnostic[] = [];
  const hasBom = text.charCodeAt(0) === 0xfeff;
  const eol: '\n' | '\r\n' = /\r\n/.test(text.slice(0, 4096)) ? '\r\n' : '\n';
  const empty: ParsedSkillFile = { text, eol, hasBom, properties: {}, fields: [], body: text, bodyStartLine: 0, diagnostics };

  if (hasBom) {
    diagnostics.push({
      rule: 'file-bom',
      severity: 'error',
      message: 'SKILL.md starts with a byte order mark (BOM); the file must start with `---`. Save the file as UTF-8 without BOM.',
      range: index.rangeOf(0, 1),
    });
  }

  let openLine = 0;
  const firstText = (line: number) => (line === 0 && hasBom ? index.lineText(0).slice(1) : index.lineText(line));
  while (index.hasLine(openLine) && firstText(openLine).trim() === '') openLine++;
  if (!index.hasLine(openLine) || !DELIMITER.test(firstText(openLine))) {
    diagnostics.push({
      rule: 'frontmatter-missing',
      severity: 'error',
      message: 'SKILL.md must start with YAML frontmatter: a `---` line, `name:` and `description:` fields, then a closing `---` line.',
      range: index.lineRange(Math.min(openLine, index.lineCount - 1)),
    });
    return empty;
  }
  if (openLine > 0) {
    diagnostics.push({
      rule: 'frontmatter-leading-blank',
      severity: 'error',
      message: `SKILL.md has ${openLine} blank line(s) before the opening \`---\`; the file must start with \`---\`. Delete the blank line(s).`,
      range: index.rangeOf(hasBom ? 1 : 0, index.offsetAt({ line: openLine, character: 0 })),
    });
  }

  let closeLine = -1;
  for (let line = openLine + 1; index.hasLine(line); line++) {
    if (DELIMITER.test(index.lineText(line))) {
      closeLine = line;
      break;
    }
  }
  const yamlOffset = index.offsetAt({ line: openLine + 1, character: 0 });
  if (closeLine < 0) {
    diagnostics.push({
      rule: 'frontmatter-unclosed',
      severity: 'error',
      message: 'The frontmatter opened with `---` is never closed. Add a `---` line after the last frontmatter field, before the Markdown body.',
      range: index.lineRange(openLine),
    });
    const frontmatter: FrontmatterBlock = { openLine, closeLine, yaml: text.slice(yamlOffset), yamlOffset, yamlOk: false, isMapping: false };
    return { ...empty, frontmatter, body: '', bodyStartLine: index.lineCount };
  }

  const yamlEnd = index.offsetAt({ line: closeLine, character: 0 });
  const yaml = text.slice(yamlOffset, Math.max(yamlOffset, yamlEnd));
  const bodyStartLine = closeLine + 1;
  const bodyOffset = index.hasLine(bodyStartLine) ? index.offsetAt({ line: bodyStartLine, character: 0 }) : text.length;
  const body = text.slice(bodyOffset);
  const result = parseFrontmatterYaml(yaml, yamlOffset, index, diagnostics);
  const frontmatter: FrontmatterBlock = { openLine, closeLine, yaml, yamlOffset, yamlOk: result.ok, isMapping: result.isMapping };
  // Only present when there is something to say, so simple files keep the same shape as fastParseSkillFile's result.
  if (result.strictIssues.length > 0) frontmatter.strictYamlIssues = result.strictIssues;
  return { text, eol, hasBom, frontmatter, properties: result.properties, fields: result.fields, body, bodyStartLine, diagnostics };
}

interface YamlResult {
  ok: boolean;
  isMapping: boolean;
  properties: Record<string, unknown>;
  fields: FrontmatterField[];
  strictIssues: StrictYamlIssue[];
}

function parseFrontmatterYaml(yaml: string, base: number, index: TextIndex, diagnostics: SkillDiagnostic[]): YamlResult {
  const limits = FRONTMATTER_LIMITS;
  const refused = (code: string, message: string): YamlResult => {
    diagnostics.push({ rule: 'yaml-syntax', severity: 'error', message, range: index.rangeOf(base, base + Math.max(1, firstLineLength(yaml))), data: { yamlCode: code } });
    return { ok: false, isMapping: false, properties: {}, fields: [], strictIssues: [] };
  };
  // Checked before the YAML parser runs: it builds the whole tree first, so its cost must be bounded by its input.
  if (yaml.length > limits.maxChars) {
    return refused(
      'FRONTMATTER_TOO_LARGE',
      `The frontmatter is ${yaml.length} characters long; at most ${limits.maxChars} are read. Keep the frontmatter to short fields (name, description, metadata) and move long text into the Markdown body or a references/ file.`,
    );
  }
  const pre = prescan(yaml, limits);
  if (pre.depth > limits.maxDepth) {
    return refused(
      'FRONTMATTER_TOO_DEEP',
      `The frontmatter nests \`[\`, \`{\` or \`- \` more than ${limits.maxDepth} levels deep. Frontmatter fields are flat (metadata one level deep): remove the extra nesting, and write lists as \`- item\` lines.`,
    );
  }
  if (pre.flows > limits.maxFlowCollections) {
    return refused(
      'FRONTMATTER_TOO_COMPLEX',
      `The frontmatter has more than ${limits.maxFlowCollections} \`[\` or \`{\` collections. Frontmatter fields are flat (metadata one level deep): write lists as \`- item\` lines and move long data into the Markdown body or a references/ file.`,
    );
  }
  // logLevel silent: the library would otherwise print its own warnings (process.emitWarning) to stderr.
  const doc = parseDocument(yaml, { schema: 'failsafe', uniqueKeys: true, prettyErrors: false, strict: true, logLevel: 'silent' });
  const deadline = cpuClockMs() + limits.budgetMs;
  pushYamlErrors(doc.errors, base, index, diagnostics);
  const ok = doc.errors.length === 0;
  const contents = doc.contents as YamlNode | null;
  if (contents === null || (isScalar(contents) && contents.value === '' && contents.source === '')) {
    return { ok, isMapping: true, properties: {}, fields: [], strictIssues: [] };
  }
  const size = measureTree(doc, limits, deadline);
  if (size.over) return refused(size.over === 'time' ? 'FRONTMATTER_TOO_SLOW' : 'FRONTMATTER_TOO_COMPLEX', tooComplex(size.over, limits));
  if (!isMap(contents)) {
    const r = contents.range ?? [0, yaml.length];
    diagnostics.push({
      rule: 'frontmatter-not-mapping',
      severity: 'error',
      message: 'The frontmatter must be a YAML mapping of `key: value` lines (e.g. `name: my-skill`), not a list or a single value.',
      range: index.rangeOf(base + r[0], base + Math.max(r[1], r[0] + 1)),
    });
    return { ok, isMapping: false, properties: {}, fields: [], strictIssues: strictYamlIssues(doc, base, index) };
  }
  const fields = collectFields(contents.items, base, index);
  let properties: Record<string, unknown> = {};
  try {
    const js = doc.toJS({ maxAliasCount: limits.maxAliasCount }) as unknown;
    if (js && typeof js === 'object' && !Array.isArray(js)) properties = js as Record<string, unknown>;
  } catch (e) {
    diagnostics.push({
      rule: 'yaml-syntax',
      severity: 'error',
      message: `The frontmatter YAML cannot be read as data: ${firstLine(String((e as Error).message))}. Remove aliases or fix the indentation.`,
      range: index.rangeOf(base, base + yaml.length),
    });
  }
  // Bounded by the limits above; the CPU clock is the last guard for whatever still costs too much work.
  if (cpuClockMs() > deadline) return refused('FRONTMATTER_TOO_SLOW', tooComplex('time', limits));
  return { ok, isMapping: true, properties, fields, strictIssues: strictYamlIssues(doc, base, index) };
}

/** Length of the first line of `s`, for a range that marks where the frontmatter starts. */
function firstLineLength(s: string): number {
  const nl = s.indexOf('\n');
  return nl < 0 ? s.length : nl;
}

function tooComplex(over: 'depth' | 'nodes' | 'time', limits: FrontmatterLimits): string {
  const what =
    over === 'depth'
      ? `nests collections more than ${limits.maxDepth} levels deep`
      : over === 'nodes'
        ? `has more than ${limits.maxNodes} keys and values`
        : `took more than ${limits.budgetMs} ms of CPU time to read`;
  return `The frontmatter ${what}. Frontmatter fields are flat (metadata one level deep): move long lists and nested data into the Markdown body or a references/ file.`;
}

/** Places reported for one kind of YAML error; the last one reported says how many more there are. */
const MAX_PLACES_PER_ERROR = 5;

/**
 * One diagnostic per distinct YAML error: the same error (code and message) on one line is one problem (400
 * `{` on one line once gave 400 identical lines), and one kind of error is shown at its first
 * {@link MAX_PLACES_PER_ERROR} lines, the last saying how many more there are.
 */
function pushYamlErrors(errors: readonly YAMLError[], base: number, index: TextIndex, diagnostics: SkillDiagnostic[]): void {
  const kinds = new Map<string, { lines: Set<number>; shown: SkillDiagnostic[]; more: number; text: string }>();
  const taken = new Set<number>();
  for (const err of errors) {
    const text = firstLine(err.message);
    const key = `${err.code}\u0000${text}`;
    let kind = kinds.get(key);
    if (!kind) kinds.set(key, (kind = { lines: new Set(), shown: [], more: 0, text }));
    const [start, end] = err.pos;
    const range = index.rangeOf(base + start, base + Math.max(end, start + 1));
    if (kind.lines.has(range.start.line)) continue;
    kind.lines.add(range.start.line);
    // One message per line: the parser's later errors on a line follow from its first (an unquoted `: ` is both a
    // nested mapping and a multi-line key); the first names the cause and the fix.
    if (taken.has(range.start.line)) continue;
    taken.add(range.start.line);
    if (kind.shown.length >= MAX_PLACES_PER_ERROR) {
      kind.more++;
      continue;
    }
    const d: SkillDiagnostic = { rule: 'yaml-syntax', severity: 'error', message: yamlMessage(text, err.code, 0), range, data: { yamlCode: err.code } };
    kind.shown.push(d);
    diagnostics.push(d);
  }
  for (const kind of kinds.values()) {
    if (kind.more > 0) {
      const last = kind.shown[kind.shown.length - 1];
      last.message = yamlMessage(kind.text, String(last.data?.yamlCode), kind.more);
    }
  }
}

function yamlMessage(text: string, code: string, more: number): string {
  const again = more > 0 ? ` (and on ${more} more line${more === 1 ? '' : 's'} below)` : '';
  return `Invalid YAML in the frontmatter: ${text}${again}. ${yamlHint(code)}`;
}

/**
 * Finds the YAML features the reference validator's parser (strictyaml) refuses: flow collections
 * (`[a, b]`, `{a: b}`), anchors, aliases and explicit tags. Only the strict mode reports them.
 */
function strictYamlIssues(doc: Document, base: number, index: TextIndex): StrictYamlIssue[] {
  const issues: StrictYamlIssue[] = [];
  const add = (kind: StrictYamlIssue['kind'], r: [number, number, number] | null | undefined) => {
    if (r) issues.push({ kind, range: index.rangeOf(base + r[0], base + Math.max(r[1], r[0] + 1)) });
  };
  visit(doc, (_key, node) => {
    if (isAlias(node)) add('alias', node.range);
    else if (isScalar(node) || isCollection(node)) {
      if (isCollection(node) && node.flow) add('flow', node.range);
      if (node.anchor) add('anchor', node.range);
      if (node.tag) add('tag', node.range);
    }
  });
  return issues;
}

function collectFields(items: Pair<unknown, unknown>[], base: number, index: TextIndex): FrontmatterField[] {
  const fields: FrontmatterField[] = [];
  for (const pair of items) {
    if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) continue;
    const key = String(pair.key.value);
    const keyRange = index.rangeOf(base + pair.key.range[0], base + pair.key.range[1]);
    const value = pair.value as YamlNode | null;
    const field: FrontmatterField = { key, keyRange, valueRange: { start: keyRange.end, end: keyRange.end }, kind: 'empty', value: '' };
    if (value && value.range) {
      field.valueRange = index.rangeOf(base + value.range[0], trimEnd(index.text, base + value.range[0], base + value.range[1]));
      if (isScalar(value)) {
        field.kind = value.source === '' && value.type === Scalar.PLAIN ? 'empty' : 'scalar';
        field.style = scalarStyle(value.type);
        field.value = String(value.value ?? '');
      } else if (isMap(value)) {
        field.kind = 'map';
        field.children = collectFields(value.items as Pair<unknown, unknown>[], base, index);
        field.value = value.toJSON();
      } else if (isSeq(value)) {
        field.kind = 'seq';
        field.value = value.toJSON();
      } else if (isAlias(value)) {
        field.kind = 'alias';
        field.value = undefined;
      }
    }
    fields.push(field);
  }
  return fields;
}

function scalarStyle(type: Scalar.Type | undefined): ScalarStyle {
  switch (type) {
    case Scalar.QUOTE_SINGLE:
      return 'single';
    case Scalar.QUOTE_DOUBLE:
      return 'double';
    case Scalar.BLOCK_LITERAL:
      return 'block-literal';
    case Scalar.BLOCK_FOLDED:
      return 'block-folded';
    default:
      return 'plain';
  }
}

/** Moves an end offset back over trailing white space, so a block value's range ends on its last character. */
function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1])) e--;
  return e;
}

function firstLine(s: string): string {
  return s.split('\n')[0].replace(/\s+at line \d+, column \d+:?$/, '').replace(/\.$/, '');
}

function yamlHint(code: string): string {
  switch (code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
    case 'NESTED_MAPPING':
      return 'A value that contains `: ` must be quoted: wrap it in double quotes.';
    case 'DUPLICATE_KEY':
      return 'Each field may appear once: delete or merge the repeated key.';
    case 'TAB_AS_INDENT':
      return 'Indent with spaces, not tabs.';
    default:
      return 'Check the quoting and indentation of the frontmatter fields.';
  }
}
