import { getField, type FieldValueType } from './fieldCatalog';
import { codePointLength, type Finding } from './findings';
import type { TextIndex } from './textIndex';
import { formatCount } from './validateBody';
import type { FrontmatterField, ParsedSkillFile, Range } from './types';
import { isToolNameEntry, parseAllowedTools } from './allowedTools';

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
export const RESERVED_WORDS = ['anthropic', 'claude'] as const;
const NAME_CHARS = /^[\p{L}\p{N}-]*$/u;
const XML_TAG = /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>/;
/**
 * True for a lowercase ASCII name with single inner hyphens (`^[a-z0-9]+(?:-[a-z0-9]+)*$`): trimming and NFKC
 * leave it as it is. A loop: this runs for every skill of a scan, where a regular expression costs more.
 */
export function isSimpleName(s: string): boolean {
  const n = s.length;
  if (n === 0 || s.charCodeAt(0) === 45 || s.charCodeAt(n - 1) === 45) return false;
  let prevHyphen = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 45) {
      if (prevHyphen) return false;
      prevHyphen = true;
    } else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) prevHyphen = false;
    else return false;
  }
  return true;
}

/** Parse rules after which the fields cannot be trusted, so field rules are skipped (as the reference does). */
export const FATAL_PARSE_RULES: ReadonlySet<string> = new Set(['frontmatter-missing', 'frontmatter-unclosed', 'yaml-syntax', 'frontmatter-not-mapping']);

/** The name a skill is known by: the frontmatter `name` (trimmed, NFKC) when it is a non-empty string, else the folder name. */
export function effectiveSkillName(properties: Record<string, unknown>, folderName: string): string {
  const n = properties.name;
  if (typeof n === 'string' && isSimpleName(n)) return n;
  return typeof n === 'string' && n.trim() !== '' ? n.trim().normalize('NFKC') : folderName.normalize('NFKC');
}

/** Checks the frontmatter fields of a parsed SKILL.md: allowed fields, name, description, compatibility, types. */
export function validateFrontmatter(parsed: ParsedSkillFile, folderName: string, index: TextIndex, out: Finding[]): void {
  const fm = parsed.frontmatter;
  if (!fm) return;
  if (fm.strictYamlIssues) for (const issue of fm.strictYamlIssues) {
    const what = { flow: 'a flow collection (`[...]` or `{...}`)', anchor: 'an anchor (`&name`)', alias: 'an alias (`*name`)', tag: 'an explicit tag (`!tag`)' }[issue.kind];
    out.push({
      rule: 'yaml-strict-subset',
      message: `The frontmatter uses ${what}, which the reference validator's strict YAML parser rejects. Write lists as \`- item\` lines and mappings as indented \`key: value\` lines.`,
      range: issue.range,
      data: { kind: issue.kind },
    });
  }
  const fields = parsed.fields;
  for (const f of fields) checkFieldKey(f, out);
  const props = parsed.properties;

  const nameField = firstField(fields, 'name');
  if (!nameField) {
    out.push({
      rule: 'name-missing',
      message: `The required field \`name\` is missing. Add \`name: ${folderName}\` (the folder name) to the frontmatter.`,
      range: index.lineRange(fm.openLine), // only for a missing field
      data: { field: 'name', expected: folderName.normalize('NFKC') },
    });
  } else {
    checkName(props.name, nameField, folderName, out);
  }

  const descField = firstField(fields, 'description');
  if (!descField) {
    out.push({
      rule: 'description-missing',
      message: 'The required field `description` is missing. Add `description:` saying what the skill does and when to use it (at most 1024 characters).',
      range: index.lineRange(fm.openLine), // only for a missing field
      data: { field: 'description' },
    });
  } else {
    checkDescription(props.description, descField, out);
  }

  const compat = firstField(fields, 'compatibility');
  if (compat) {
    const v = props.compatibility;
    if (typeof v !== 'string') {
      out.push({
        rule: 'compatibility-not-string',
        message: '`compatibility` must be a string (at most 500 characters), e.g. `compatibility: Requires git and network access`.',
        range: rangeOfValue(compat),
        data: { field: 'compatibility' },
      });
    } else {
      // Code points never outnumber UTF-16 units, so short values need no count.
      const len = v.length > COMPATIBILITY_MAX ? codePointLength(v) : v.length;
      if (len > COMPATIBILITY_MAX) {
        out.push({
          rule: 'compatibility-too-long',
          message: `\`compatibility\` is ${len} characters; the limit is ${COMPATIBILITY_MAX}. Shorten it and move details into the body.`,
          range: rangeOfValue(compat),
          data: { field: 'compatibility', length: len, limit: COMPATIBILITY_MAX },
        });
      }
    }
  }

  const tools = firstField(fields, 'allowed-tools');
  if (tools && tools.kind !== 'empty') {
    const value = props['allowed-tools'];
    const bad = isToolList(value) ? (parseAllowedTools(value) ?? []).filter((e) => !isToolNameEntry(e)) : undefined;
    if (!bad || bad.length) {
      out.push({
        rule: 'allowed-tools-invalid',
        message: bad
          ? `\`allowed-tools\` has ${bad.map((e) => `'${e}'`).join(', ')}, which ${bad.length === 1 ? 'is not a tool name' : 'are not tool names'}: a tool name starts with a letter (e.g. \`Read\`, \`Bash(git:*)\`, \`mcp__server__tool\`). Fix or remove ${bad.length === 1 ? 'it' : 'them'}.`
          : '`allowed-tools` must be a space- or comma-separated string of tool names (e.g. `Bash(git:*) Read`) or a list of tool names.',
        range: rangeOfValue(tools),
        data: { field: 'allowed-tools', ...(bad ? { invalidEntries: bad } : {}) },
      });
    }
  }

  const meta = firstField(fields, 'metadata');
  if (meta) checkMetadata(meta, out);

  for (const f of fields) {
    if (firstField(fields, f.key) !== f) continue; // a repeated key is judged once, by its first occurrence
    if (f.key === 'name' || f.key === 'description' || f.key === 'compatibility' || f.key === 'allowed-tools' || f.key === 'metadata') continue;
    const info = getField(f.key);
    if (info && !hasType(f, props[f.key], info.type)) {
      out.push({
        rule: 'field-type',
        message: `\`${f.key}\` must be ${typeWords(info.type)}. ${info.doc}`,
        range: rangeOfValue(f),
        data: { field: f.key, expectedType: info.type },
      });
    }
  }
}

/** The first field with `key` (a handful of fields: a scan is cheaper than building a map). */
function firstField(fields: readonly FrontmatterField[], key: string): FrontmatterField | undefined {
  for (const f of fields) if (f.key === key) return f;
  return undefined;
}

function checkFieldKey(f: FrontmatterField, out: Finding[]): void {
  const info = getField(f.key);
  if (info?.standard) return;
  if (info) {
    out.push({
      rule: 'field-nonstandard',
      message: `\`${f.key}\` is defined by ${info.hosts.join(' and ')} but not by the Agent Skills specification; other hosts ignore it and the reference validator rejects it. For portability move it under \`metadata\` or remove it.`,
      range: f.keyRange,
      data: { field: f.key, hosts: info.hosts },
    });
  } else {
    out.push({
      rule: 'field-unknown',
      message: `Unknown frontmatter field \`${f.key}\`. The specification allows only name, description, license, compatibility, metadata and allowed-tools; check the spelling or move it under \`metadata\`.`,
      range: f.keyRange,
      data: { field: f.key },
    });
  }
}

function checkName(value: unknown, f: FrontmatterField, folderName: string, out: Finding[]): void {
  if (typeof value === 'string' && value === folderName && value.length <= NAME_MAX && isSimpleName(value)) {
    // The common case: every rule below but the reserved words passes for a simple name equal to its folder,
    // which is already lowercase. The range is built only for a finding (a parser may compute it on demand).
    if (value.includes(RESERVED_WORDS[0]) || value.includes(RESERVED_WORDS[1])) checkReservedWord(value, rangeOfValue(f), out);
    return;
  }
  const r = rangeOfValue(f);
  const folder = folderName.normalize('NFKC');
  if (typeof value !== 'string' || value.trim() === '') {
    out.push({
      rule: 'name-empty',
      message: `\`name\` must be a non-empty string. Set \`name: ${folder}\` (the folder name).`,
      range: r,
      data: { field: 'name', expected: folder },
    });
    return;
  }
  const name = value.trim().normalize('NFKC');
  const len = codePointLength(name);
  if (len > NAME_MAX) {
    out.push({
      rule: 'name-too-long',
      message: `\`name\` is ${len} characters; the limit is ${NAME_MAX}. Shorten it (and rename the folder to match).`,
      range: r,
      data: { field: 'name', length: len, limit: NAME_MAX },
    });
  }
  const lower = name.toLowerCase();
  if (name !== lower) {
    out.push({
      rule: 'name-uppercase',
      message: `\`name\` '${name}' must be lowercase. Use '${lower}' (and rename the folder to match).`,
      range: r,
      data: { field: 'name', expected: lower },
    });
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    out.push({
      rule: 'name-hyphen-edge',
      message: `\`name\` '${name}' must not start or end with a hyphen. Remove the ${name.startsWith('-') ? 'leading' : 'trailing'} \`-\`.`,
      range: r,
      data: { field: 'name', expected: name.replace(/^-+|-+$/g, '') },
    });
  }
  if (name.includes('--')) {
    out.push({
      rule: 'name-consecutive-hyphens',
      message: `\`name\` '${name}' must not contain consecutive hyphens. Use a single \`-\` between words.`,
      range: r,
      data: { field: 'name', expected: name.replace(/-{2,}/g, '-') },
    });
  }
  if (!NAME_CHARS.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[\p{L}\p{N}-]/u.test(c)))].map((c) => JSON.stringify(c)).join(', ');
    out.push({
      rule: 'name-invalid-chars',
      message: `\`name\` '${name}' contains ${bad}; only letters, digits and hyphens are allowed. Replace them with \`-\`.`,
      range: r,
      data: { field: 'name', expected: lower.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '') },
    });
  }
  if (folder !== name) {
    out.push({
      rule: 'name-folder-mismatch',
      message: `\`name\` '${name}' does not match the folder name '${folderName}'. Rename the folder or set \`name: ${folder}\`.`,
      range: r,
      data: { field: 'name', expected: folder, folderName },
    });
  }
  checkReservedWord(name, r, out);
  if (name.includes('<') && XML_TAG.test(name)) out.push(xmlFinding('name', r));
}

function checkReservedWord(name: string, r: Range, out: Finding[]): void {
  const lower = name.toLowerCase();
  const reserved = RESERVED_WORDS.find((w) => lower.includes(w));
  if (reserved) {
    out.push({
      rule: 'name-reserved-word',
      message: `\`name\` '${name}' contains the reserved word '${reserved}'; Anthropic's guidelines reserve it for its own skills. Choose a name without it.`,
      range: r,
      data: { field: 'name', word: reserved },
    });
  }
}

function checkDescription(value: unknown, f: FrontmatterField, out: Finding[]): void {
  if (typeof value !== 'string' || value.trim() === '') {
    out.push({
      rule: 'description-empty',
      message: '`description` must be a non-empty string saying what the skill does and when to use it (at most 1024 characters).',
      range: rangeOfValue(f),
      data: { field: 'description' },
    });
    return;
  }
  const len = value.length > DESCRIPTION_MAX ? codePointLength(value) : value.length;
  if (len > DESCRIPTION_MAX) {
    out.push({
      rule: 'description-too-long',
      message: `\`description\` is ${formatCount(len)} characters; the limit is ${DESCRIPTION_MAX}. Shorten it by ${len - DESCRIPTION_MAX} and move detail into the body.`,
      range: rangeOfValue(f),
      data: { field: 'description', length: len, limit: DESCRIPTION_MAX },
    });
  }
  if (value.includes('<') && XML_TAG.test(value)) out.push(xmlFinding('description', rangeOfValue(f)));
}

function xmlFinding(field: string, range: Range): Finding {
  return {
    rule: 'xml-tags',
    message: `\`${field}\` contains an XML tag; skill metadata is placed inside XML in the prompt, where tags can break it. Remove the tag or describe it in words.`,
    range,
    data: { field },
  };
}

function checkMetadata(f: FrontmatterField, out: Finding[]): void {
  if (f.kind === 'empty') return;
  if (f.kind !== 'map') {
    out.push({
      rule: 'metadata-invalid',
      message: '`metadata` must be a mapping of string keys to string values, written as indented `key: value` lines.',
      range: rangeOfValue(f),
      data: { field: 'metadata' },
    });
    return;
  }
  for (const child of f.children ?? []) {
    if (child.kind === 'scalar' || child.kind === 'empty') continue;
    out.push({
      rule: 'metadata-invalid',
      message: `\`metadata.${child.key}\` must be a string value, not a ${child.kind === 'seq' ? 'list' : child.kind === 'map' ? 'mapping' : 'reference'}. Write it as one string, e.g. \`${child.key}: "a, b"\`.`,
      range: rangeOfValue(child),
      data: { field: `metadata.${child.key}` },
    });
  }
}

function isToolList(v: unknown): boolean {
  if (typeof v === 'string') return true;
  return Array.isArray(v) && v.every((t) => typeof t === 'string');
}

function hasType(f: FrontmatterField, v: unknown, type: FieldValueType): boolean {
  if (f.kind === 'empty') return true;
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'string' && /^(true|false)$/i.test(v.trim());
    case 'string-or-list':
      return isToolList(v);
    case 'mapping':
      return f.kind === 'map';
  }
}

function typeWords(t: FieldValueType): string {
  return { string: 'a string', boolean: '`true` or `false`', 'string-or-list': 'a string or a list of strings', mapping: 'a mapping of `key: value` lines' }[t];
}

/** The value's range, or the key's when the value is missing. */
function rangeOfValue(f: FrontmatterField): Range {
  const v = f.valueRange;
  return v.start.line === v.end.line && v.start.character === v.end.character ? f.keyRange : v;
}
