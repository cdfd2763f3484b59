import * as path from 'node:path';

/**
 * Files of a skill that are for tools or people rather than the model (licences, package manifests, tests, evals,
 * provenance records, manifests of the skill itself): nothing needs to mention them, so file-unreferenced leaves
 * them alone.
 */

/** Files that count as mentioned by their presence alone: licences (also a font's `*-OFL.txt`), notices, dot files. */
const SELF_EVIDENT = /^(?:LICEN[CS]E|COPYING|NOTICE|README|CHANGELOG)(?:\.[\w.]+)?$|(?:^|[-_.])(?:OFL|LICEN[CS]E)(?:[-_.][\w.-]*)?\.(?:txt|md)$|^\.|^__init__\.py$/i;

/**
 * Files a package manager or build tool reads by convention (`uv run` reads pyproject.toml, `npm ci` the lock file):
 * the tool finds them, not the model, and deleting one breaks the skill's scripts.
 */
const TOOL_MANIFEST = /^(?:pyproject\.toml|uv\.lock|poetry\.lock|Pipfile(?:\.lock)?|requirements[\w.-]*\.txt|setup\.(?:py|cfg)|package(?:-lock)?\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb?|deno\.jsonc?|tsconfig(?:\.[\w-]+)?\.json|Cargo\.(?:toml|lock)|go\.(?:mod|sum)|Gemfile(?:\.lock)?|composer\.(?:json|lock))$/;
/** A test suite of the skill's own code (a `tests/` folder, `test_x.py`, `x.test.ts`): for its author, like evals/. */
const TEST_CODE = /(?:^|\/)(?:tests?|__tests__|spec)\/|(?:^|\/)test_[\w-]+\.py$|_test\.(?:py|go)$|\.(?:test|spec)\.[cm]?[jt]sx?$/;

/** The folder of a skill's evaluations (agentskills.io's `evals/`, src/core/evals). */
const EVALS_DIR = 'evals/';

/** Largest file taken for a provenance record (they are a few lines). */
const PROVENANCE_MAX_CHARS = 2048;

/**
 * True for a short record of where a generated, synced or vendored skill came from: a full commit hash and a word
 * saying source, upstream, generated, synced or vendored. Such a file is read by the tool that regenerates the
 * skill, never by the model, so it is not unreferenced (a log or notes file without a commit hash still is).
 */
function isProvenanceRecord(text: string): boolean {
  return text.length <= PROVENANCE_MAX_CHARS && /\b[0-9a-f]{40}\b/i.test(text) && /\b(?:source|upstream|generated|synced|vendored|imported)\b/i.test(text);
}

/** Data files a catalog or build tool reads: JSON, YAML, TOML. */
const DATA_FILE = /\.(?:json|ya?ml|toml)$/i;
/**
 * A key naming what a manifest describes (`"name": …`, `skillName: …`, `id = …`), and its value on the same line.
 * Its indent is white space within its line: `\s*` there ran from each empty line (or `\r`, U+2028, which the
 * multiline `^` also follows) to the end of the head, quadratic (manifestHead.redteam.test.ts).
 */
const MANIFEST_NAME = /^[^\S\n\r\u2028\u2029]*["']?(?:name|id|slug|title|skill[-_]?name|skill[-_]?id)["']?\s*[:=]\s*["']?([^"'\n,#]{1,100})/gim;
/** How much of a data file is read for its name key: a manifest names its skill near the top. */
const MANIFEST_HEAD_CHARS = 4096;

/** `value` as a skill name is written: lower case, words joined by `-` ("Release Notes" is `release-notes`). */
function slug(value: string): string {
  return value.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

/**
 * True for a manifest of the skill itself, kept beside SKILL.md for a catalog or a build: a variant of the skill
 * file for one host (`SKILL.<host>.yaml`), or a data file at the skill's root whose name key (`name`, `skillName`,
 * `id`, `title`) is the skill's name or folder. Such a file describes the skill to a tool; the model has no use
 * for it, so it is not unreferenced (a data file the scripts read, such as a `config.json`, still is).
 */
function isSkillManifest(rel: string, text: string, skillFileName: string, names: readonly string[]): boolean {
  if (rel.includes('/') || !DATA_FILE.test(rel)) return false;
  const stem = skillFileName.replace(/\.[^.]+$/, '');
  if (rel.toLowerCase().startsWith(`${stem.toLowerCase()}.`)) return true;
  const own = new Set(names.map(slug).filter(Boolean));
  MANIFEST_NAME.lastIndex = 0;
  const head = text.slice(0, MANIFEST_HEAD_CHARS);
  for (let m = MANIFEST_NAME.exec(head); m; m = MANIFEST_NAME.exec(head)) if (own.has(slug(m[1]))) return true;
  return false;
}

/** True when `rel` needs no mention by its name alone: a licence or notice, a package manifest, a test, an eval. */
export function isToolFile(rel: string): boolean {
  const base = path.posix.basename(rel);
  return SELF_EVIDENT.test(base) || rel.startsWith(EVALS_DIR) || TEST_CODE.test(rel) || TOOL_MANIFEST.test(base);
}

/**
 * True when `rel` needs no mention by what it holds: a provenance record of a generated skill, or a manifest of the
 * skill itself (`names`: the names the skill goes by).
 */
export function isToolRecord(rel: string, text: string, skillFileName: string, names: readonly string[]): boolean {
  return isProvenanceRecord(text) || isSkillManifest(rel, text, skillFileName, names);
}
