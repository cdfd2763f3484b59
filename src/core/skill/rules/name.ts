import { codePointLength } from '../codePoints';
import type { Finding } from '../findings';
import type { FrontmatterField, Range } from '../skillTypes';
import { rangeOfValue } from './fieldAccess';
import { rule, type RuleInfo } from './ruleInfo';
import { XML_TAG, xmlFinding } from './xmlTags';

export const NAME_MAX = 64;
export const RESERVED_WORDS = ['anthropic', 'claude'] as const;
const NAME_CHARS = /^[\p{L}\p{N}-]*$/u;

const RENAME_FIX = { title: 'Set name to the folder name (or rename the folder with F2)', safe: false };

/** The `name` rules. */
export const NAME_RULES: readonly RuleInfo[] = [
  rule('name-missing', 'error', 'warning', 'The required `name` field is missing.',
    'Every skill needs `name`. Claude Code and VS Code fall back to the folder name, so lenient mode loads the skill under its folder name; add `name: <folder-name>`.',
    { fix: { title: 'Add `name: <folder-name>`', safe: true } }),
  rule('name-empty', 'error', 'warning', '`name` is empty or not a string.',
    '`name` must be a non-empty string. Lenient mode loads the skill under its folder name; set `name: <folder-name>`.', { fix: RENAME_FIX }),
  rule('name-too-long', 'error', 'warning', '`name` is longer than 64 characters.',
    'A name has at most 64 characters (Unicode code points, after NFKC normalization). Shorten it and rename the folder to match.'),
  rule('name-uppercase', 'error', 'warning', '`name` contains uppercase letters.',
    'Names are lowercase. Use the lowercase form and rename the folder to match. A name with other problems of form too (`Git Commit Helper`) gets one finding that names them all and gives the mended name: under `name-invalid-chars` when it has characters other than letters, digits and hyphens, else under this rule.', { fix: RENAME_FIX }),
  rule('name-hyphen-edge', 'error', 'warning', '`name` starts or ends with a hyphen.',
    'Names must not start or end with `-`. Remove the leading or trailing hyphen.', { fix: RENAME_FIX }),
  rule('name-consecutive-hyphens', 'error', 'warning', '`name` contains `--`.',
    'Names must not contain consecutive hyphens. Use a single `-` between words.', { fix: RENAME_FIX }),
  rule('name-invalid-chars', 'error', 'warning', '`name` contains characters other than letters, digits and hyphens.',
    'Names may contain only Unicode letters and digits (a lowercase Chinese or Russian name is valid) and hyphens. Replace spaces, underscores and punctuation with `-`. When the name also has uppercase letters or misplaced hyphens, this one finding says everything wrong with it and gives the mended name (`Git Commit Helper` → `git-commit-helper`).', { fix: RENAME_FIX }),
  rule('name-folder-mismatch', 'error', 'warning', '`name` differs from the skill folder name.',
    'The name must equal the folder name (both NFKC-normalized). Hosts that key skills by folder may show one name and load another. Rename the folder or change `name`; F2 on `name` renames the folder and updates links to it across the workspace. A name whose mended form is the folder name (`Git Commit Helper` in `git-commit-helper/`) gets only its form finding, which gives that name.', { fix: RENAME_FIX }),
  rule('name-reserved-word', 'warning', 'warning', '`name` contains a reserved word (`anthropic`, `claude`).',
    'Anthropic\'s skill guidelines reserve these words; the reference accepts them, but uploads to Anthropic\'s API may be rejected. Choose a name without them.'),
];

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

function hasReservedWord(name: string): boolean {
  return name.includes(RESERVED_WORDS[0]) || name.includes(RESERVED_WORDS[1]);
}

/**
 * True when no `name` rule has anything to say: a simple lowercase name equal to its folder's, within the
 * limit, without a reserved word. The fast path (plainlyValid) and {@link checkName} both ask this.
 */
export function nameIsPlain(value: unknown, folderName: string): boolean {
  return typeof value === 'string' && value === folderName && value.length <= NAME_MAX && isSimpleName(value) && !hasReservedWord(value);
}

/** The name a skill is known by: the frontmatter `name` (trimmed, NFKC) when it is a non-empty string, else the folder name. */
export function effectiveSkillName(properties: Record<string, unknown>, folderName: string): string {
  const n = properties.name;
  if (typeof n === 'string' && isSimpleName(n)) return n;
  return typeof n === 'string' && n.trim() !== '' ? n.trim().normalize('NFKC') : folderName.normalize('NFKC');
}

/** The `name` rules for a present `name` field. */
export function checkName(value: unknown, f: FrontmatterField, folderName: string, out: Finding[]): void {
  // The common case; the range is built only for a finding (a parser may compute it on demand).
  if (nameIsPlain(value, folderName)) return;
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
  const mended = checkNameForm(name, r, out, folder);
  // A name whose mended form is the folder's name has one problem, its form, already reported with that fix.
  if (folder !== name && mended !== folder) {
    out.push({
      rule: 'name-folder-mismatch',
      message: `\`name\` '${name}' does not match the folder name '${folderName}'. Rename the folder (F2 on \`name\` renames it and updates links) or set \`name: ${folder}\`.`,
      range: r,
      data: { field: 'name', expected: folder, folderName },
    });
  }
  checkReservedWord(name, r, out);
  if (name.includes('<') && XML_TAG.test(name)) out.push(xmlFinding('name', r));
}

/**
 * Why `name` is not a well-formed skill name, or undefined when it is: the form and length rules of {@link checkName},
 * and NFKC form (a name that NFKC changes, like full-width `ｐｄｆ`, reads as another). For names that come with no
 * file to mark, such as an MCP server's listing; the message is `checkName`'s.
 */
export function nameFormProblem(name: string): string | undefined {
  if (isSimpleName(name)) return name.length <= NAME_MAX ? undefined : `\`name\` is ${name.length} characters; the limit is ${NAME_MAX}.`;
  const normal = name.trim().normalize('NFKC');
  if (normal !== name) return `\`name\` ${JSON.stringify(name)} is not in its normal form: NFKC makes it ${JSON.stringify(normal)}, a name it would be taken for.`;
  const len = codePointLength(name);
  if (len > NAME_MAX) return `\`name\` is ${len} characters; the limit is ${NAME_MAX}.`;
  const out: Finding[] = [];
  const nowhere = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  checkNameForm(name, nowhere, out, name);
  return out[0]?.message;
}

/** A name with every form problem mended: lowercase, runs of other characters and hyphens made one `-`, none at the ends. */
export function mendedName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}

interface FormProblem {
  rule: string;
  /** What is wrong, as a clause: "has uppercase letters". */
  says: string;
  /** The single-cause message. */
  message: string;
  /** The single-cause suggestion. */
  expected: string;
}

/**
 * The form of a name: uppercase letters, characters other than letters, digits and hyphens, a hyphen at an end,
 * `--`. A name with one of these gets that rule's finding; a name with several ("Git Commit Helper") gets one
 * finding that says them all and gives the one mended name, under the first rule in the order checked here
 * (invalid characters, uppercase, `--`, hyphen at an end). Returns the suggested name, if any.
 */
function checkNameForm(name: string, r: Range, out: Finding[], folder: string): string | undefined {
  // The folder needs renaming only when the suggested name is not already its name.
  const rename = (use: string) => (use === folder ? ', the folder\'s name' : ' (and rename the folder to match)');
  const problems: FormProblem[] = [];
  const lower = name.toLowerCase();
  if (!NAME_CHARS.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[\p{L}\p{N}-]/u.test(c)))].map((c) => JSON.stringify(c)).join(', ');
    problems.push({
      rule: 'name-invalid-chars',
      says: `contains ${bad}`,
      message: `\`name\` '${name}' contains ${bad}; only letters, digits and hyphens are allowed. Replace them with \`-\`.`,
      expected: mendedName(name),
    });
  }
  if (name !== lower) {
    problems.push({
      rule: 'name-uppercase',
      says: 'has uppercase letters',
      message: `\`name\` '${name}' must be lowercase. Use '${lower}'${rename(lower)}.`,
      expected: lower,
    });
  }
  if (name.includes('--')) {
    problems.push({
      rule: 'name-consecutive-hyphens',
      says: 'contains `--`',
      message: `\`name\` '${name}' must not contain consecutive hyphens. Use a single \`-\` between words.`,
      expected: name.replace(/-{2,}/g, '-'),
    });
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    const where = name.startsWith('-') ? (name.endsWith('-') ? 'leading and trailing' : 'leading') : 'trailing';
    problems.push({
      rule: 'name-hyphen-edge',
      says: `has a ${where} \`-\``,
      message: `\`name\` '${name}' must not start or end with a hyphen. Remove the ${where} \`-\`.`,
      expected: name.replace(/^-+|-+$/g, ''),
    });
  }
  if (problems.length === 0) return undefined;
  if (problems.length === 1) {
    const [p] = problems;
    out.push({ rule: p.rule, message: p.message, range: r, data: { field: 'name', expected: p.expected } });
    return p.expected;
  }
  const fixed = mendedName(name);
  const says = problems.map((p) => p.says);
  const list = `${says.slice(0, -1).join(', ')} and ${says[says.length - 1]}`;
  out.push({
    rule: problems[0].rule,
    message: fixed === ''
      ? `\`name\` '${name}' ${list}; a name has only lowercase letters, digits and single inner hyphens. Choose one (and rename the folder to match).`
      : `\`name\` '${name}' ${list}; a name has only lowercase letters, digits and single inner hyphens. Use '${fixed}'${rename(fixed)}.`,
    range: r,
    data: { field: 'name', expected: fixed, problems: problems.map((p) => p.rule) },
  });
  return fixed;
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
