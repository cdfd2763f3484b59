import { excerpt } from './diagnosticLimits';
import * as path from 'node:path';
import { checkRelative } from '../paths/resolveInRoot';
import { extractBodyReferences, referenceFolders, type BodyReference, type ExtractReferencesOptions } from './bodyReferences';
import { estimateTokens } from './estimateTokens';
import { answerOrUndefined, readTextFile, remembered, resolvedEntries, type PathKind, type SkillsHost } from '../host/skillsHost';
import { isInside } from '../paths/isInside';
import { listSkillTextFiles } from './filesHost';
import type { Finding } from './findings';
import { REFERENCE_MAX_TOKENS } from './rules/references';
import { scanSecrets } from './secretScan';
import { AGENT_PROFILES, isConventionFile, skillDirVariables, type AgentProfile } from './agentProfiles';
import { fencedBlocks } from './markdownBlocks';
import { exampleSkillBlocks, isIllustrativePath } from './rules/referenceContext';
import { closestPath } from './similarPaths';
import { isToolFile, isToolRecord } from './toolFiles';
import { SiblingSkills } from './siblingSkills';
import { checkCommands, checkSkillFolder, checkTextFile, type PortabilityScan } from './validatePortability';
import { TextIndex } from './textIndex';
import type { ParsedSkillFile } from './skillTypes';

/** True when a relative path (with `/` or `\` separators) leaves the folder it is relative to (the one rule of src/core/paths). */
export function escapesFolder(rel: string): boolean {
  const checked = checkRelative(rel, { allowRoot: true });
  return !checked.ok && (checked.reason === 'outside' || checked.reason === 'absolute' || checked.reason === 'home');
}

/** Every agent's skill-folder variables: one extraction serves any agent set (each keeps its own variables' references). */
const ALL_SKILL_DIR_VARIABLES = skillDirVariables(AGENT_PROFILES);

/**
 * How the reference rules extract a body's references, given the skill's top-level folders ({@link referenceFolders}):
 * the language server extracts with the same options on the same index, so one extraction serves its links and the rules.
 */
export function referenceExtraction(folders: readonly string[], index: TextIndex): ExtractReferencesOptions {
  return { index, folders, variables: ALL_SKILL_DIR_VARIABLES };
}

/** Limits the file rules read from the configuration. */
export interface FileLimits {
  referenceMaxTokens: number;
}

/** The most of one text file the secret scan reads. */
const TEXT_FILE_MAX_BYTES = 1024 * 1024;

const TEXT_REF = /\.(md|markdown|txt|rst|json|ya?ml|csv|xml|html?)$/i;

/**
 * Reference rules: each relative link or resource path in the body must exist inside the skill folder,
 * be written with `/`, and (for text files) fit in one read.
 */
export async function validateReferences(parsed: ParsedSkillFile, rootDir: string, host: SkillsHost, index: TextIndex, out: Finding[], limits: FileLimits = { referenceMaxTokens: REFERENCE_MAX_TOKENS }, agents: readonly AgentProfile[] = AGENT_PROFILES): Promise<void> {
  const folders = referenceFolders((await resolvedEntries(host, rootDir)) ?? []);
  const ownVariables = new Set(skillDirVariables(agents));
  const refs = extractBodyReferences(parsed, referenceExtraction(folders, index)).filter((r) => r.variable === undefined || ownVariables.has(r.variable));
  // The findings depend on the body (the references, the words around them, their lines), the skill's names, the
  // limits and the files: a host that keeps what it read (the language server's, while a frontmatter is typed) keeps
  // them until a file changes where the check looks (the skill's plugin folder, or higher for a `../../` path).
  const name = typeof parsed.properties.name === 'string' ? parsed.properties.name : '';
  const input = [parsed.bodyStartLine, name, limits.referenceMaxTokens, agents.map((a) => a.id).join(','), folders.join('/'), parsed.body].join('\u0000');
  const check = async (): Promise<Finding[]> => {
    const found: Finding[] = [];
    await checkReferences(parsed, rootDir, host, index, refs, found, limits);
    return found;
  };
  for (const f of await remembered(host, reachOf(rootDir, refs), `references\u0000${rootDir}`, input, check)) out.push({ ...f });
}

/**
 * The folder every path the reference check may look at lies in: two up from the skill (its siblings, the manifest of
 * a plugin holding it), or higher for a relative path that climbs further.
 */
function reachOf(rootDir: string, refs: readonly BodyReference[]): string {
  let reach = path.dirname(path.dirname(rootDir));
  for (const ref of refs) {
    const rel = ref.path.replace(/\\/g, '/');
    // An absolute or home path is not looked up (see checkReferences): only a relative one that climbs out is.
    if (!escapesFolder(rel) || isAbsoluteLike(rel)) continue;
    const target = path.resolve(rootDir, rel);
    for (let up = path.dirname(reach); !isInside(reach, target) && up !== reach; up = path.dirname(reach)) reach = up;
  }
  return reach;
}

/** An absolute, home or drive path (`/x`, `~/x`, `C:x`), written with `/`. */
function isAbsoluteLike(rel: string): boolean {
  return rel.startsWith('/') || rel.startsWith('~') || /^[A-Za-z]:/.test(rel);
}

/** The reference rules over the references found ({@link validateReferences}). */
async function checkReferences(parsed: ParsedSkillFile, rootDir: string, host: SkillsHost, index: TextIndex, refs: readonly BodyReference[], out: Finding[], limits: FileLimits): Promise<void> {
  const text = parsed.text;
  // The example SKILL.md blocks are looked for only when a missing path is judged (a body of 100,000 blocks and no reference never needs them).
  let exampleBlocks: [number, number][] | undefined;
  const examples = () => (exampleBlocks ??= exampleSkillBlocks(text, fencedBlocks(text, index, text.length - parsed.body.length).blocks));
  const seen = new Map<string, Promise<PathKind | undefined>>();
  // One finding per missing path (at its first mention), saying how many more mentions there are.
  const missing = new Map<string, { finding: Finding; more: number }>();
  const sized = new Set<string>();
  const listed = new Map<string, Promise<string[] | undefined>>();
  let allFiles: Promise<string[]> | undefined;
  const siblings = new SiblingSkills(host, rootDir);
  const ownNames = skillNames(parsed, rootDir);
  for (const ref of refs) {
    const rel = ref.path.replace(/\\/g, '/');
    if (escapesFolder(rel)) {
      // Only a relative path that leaves the folder is looked up (not an absolute or home path): beside the skill.
      const beside = isAbsoluteLike(rel) ? undefined : await answerOrUndefined(() => host.kind(path.resolve(rootDir, rel)));
      const sibling = beside ? await siblings.holding(rel) : undefined;
      if (sibling) {
        // A plugin is installed whole: its skills are always side by side, so the path always resolves.
        if (!(await siblings.installedWhole())) out.push(siblingFinding(ref, sibling));
        continue;
      }
      out.push({
        rule: 'reference-outside',
        message: beside
          ? `\`${excerpt(ref.path)}\` (${ref.kind}) points outside the skill folder; it exists beside the skill here, but not where the skill is installed on its own. Copy the file into the skill and refer to it by a path relative to the skill folder.`
          : `\`${excerpt(ref.path)}\` (${ref.kind}) points outside the skill folder, to a file that does not exist there either. Copy the file into the skill and refer to it by a path relative to the skill folder, or remove the link.`,
        range: ref.range,
        data: { path: ref.path, kind: ref.kind, exists: beside !== undefined },
      });
      continue;
    }
    if (ref.path.includes('\\')) out.push(backslash(ref, rel));
    const norm = path.posix.normalize(rel);
    let kind = seen.get(norm);
    if (!kind) {
      const abs = path.join(rootDir, norm);
      kind = Promise.resolve(host.kind(abs));
      seen.set(norm, kind);
    }
    const found = await kind;
    // A host on a case-insensitive disk (macOS, Windows) finds `REFERENCE.md` as `reference.md`; Linux does not.
    const onDisk = found ? await exactCase(host, rootDir, norm, listed) : undefined;
    if (!found && ref.kind !== 'link' && ref.kind !== 'variable' && isIllustrativePath(text, ref, examples, ownNames)) continue;
    if (!found || onDisk) {
      const again = missing.get(norm);
      if (again) {
        again.more++;
        continue;
      }
      const owner = found ? undefined : await siblings.owner(norm);
      if (owner) {
        const finding = siblingFinding(ref, owner, `../${owner}/${norm}`);
        missing.set(norm, { finding, more: 0 });
        out.push(finding);
        continue;
      }
      allFiles ??= listSkillTextFiles(host, rootDir);
      const suggestion = onDisk ?? closestPath(norm, await allFiles);
      const caseOnly = suggestion !== undefined && suggestion.toLowerCase() === norm.toLowerCase();
      const finding: Finding = {
        rule: 'reference-missing',
        message: caseOnly
          ? `\`${excerpt(ref.path)}\` (${ref.kind}) is \`${suggestion}\` on disk: the case differs, so it is found on macOS and Windows but missing on Linux and in containers. Write \`${suggestion}\`.`
          : `\`${excerpt(ref.path)}\` (${ref.kind}) does not exist in the skill folder.${suggestion ? ` Did you mean \`${suggestion}\`?` : ' Fix the path (relative to the folder that holds SKILL.md) or add the file.'}`,
        range: ref.range,
        data: { path: ref.path, kind: ref.kind, ...(suggestion ? { suggestion, fix: { title: `Change the path to '${suggestion}'`, edits: [{ range: ref.range, newText: suggestion }] } } : {}) },
      };
      missing.set(norm, { finding, more: 0 });
      out.push(finding);
    } else if (found === 'file' && TEXT_REF.test(norm) && !sized.has(norm)) {
      sized.add(norm);
      // A file too large to read for counting is counted by its size (about 4 characters a token).
      const abs = path.join(rootDir, norm);
      const cap = limits.referenceMaxTokens * 4 * 4;
      const size = (await answerOrUndefined(() => host.stat(abs)))?.size;
      const text = size !== undefined && size > cap ? undefined : await readTextFile(host, abs, cap);
      const tokens = size !== undefined && size > cap ? Math.ceil(size / 4) : text === undefined ? undefined : estimateTokens(text);
      if (tokens !== undefined && tokens > limits.referenceMaxTokens) {
        out.push({
          rule: 'reference-too-many-tokens',
          message: `\`${excerpt(ref.path)}\` is about ${tokens} tokens; one read returns at most about ${limits.referenceMaxTokens}, so the model sees only its start. Split it into smaller files or add a table of contents with sections the model can read in parts.`,
          range: ref.range,
          data: { path: ref.path, tokens, limit: limits.referenceMaxTokens },
        });
      }
    }
  }
  for (const { finding, more } of missing.values()) {
    if (more > 0) finding.message = finding.message.replace(' does not exist', ` does not exist (mentioned ${more} more time${more === 1 ? '' : 's'} below)`);
  }
}

/**
 * The path as the folder listing spells it when it differs from `rel` only in case (a case-insensitive disk
 * found it), or undefined when it is spelt as on disk or cannot be listed.
 */
async function exactCase(host: SkillsHost, rootDir: string, rel: string, listed: Map<string, Promise<string[] | undefined>>): Promise<string | undefined> {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  let dir = rootDir;
  const spelt: string[] = [];
  let differs = false;
  for (const part of parts) {
    // Each folder is listed once per skill, however many references pass through it.
    let list = listed.get(dir);
    if (!list) {
      const at = dir;
      list = answerOrUndefined(() => host.readDirectory(at)).then((es) => es?.map((e) => e.name));
      listed.set(dir, list);
    }
    const names = await list;
    if (!names || part === '..') return undefined;
    if (names.includes(part)) spelt.push(part);
    else {
      const other = names.filter((n) => n.toLowerCase() === part.toLowerCase());
      if (other.length !== 1) return undefined;
      spelt.push(other[0]);
      differs = true;
    }
    dir = path.join(dir, spelt[spelt.length - 1]);
  }
  return differs ? spelt.join('/') : undefined;
}

/**
 * A path into a sibling skill: `written` when the body wrote it as `../<sibling>/…`, or `resolved` (the path that
 * would reach the file) when the body wrote the sibling's own relative path as if it were this skill's.
 */
function siblingFinding(ref: BodyReference, sibling: string, resolved?: string): Finding {
  const needs = `it works only where \`${sibling}\` is installed beside this skill (the whole collection), and breaks when this skill is installed alone`;
  return {
    rule: 'reference-sibling-skill',
    message: resolved
      ? `\`${excerpt(ref.path)}\` (${ref.kind}) is not in this skill but in the sibling skill \`${sibling}\`, and paths are read from this skill's folder: write \`${excerpt(resolved)}\` (${needs}), or copy the file into this skill.`
      : `\`${excerpt(ref.path)}\` (${ref.kind}) is a file of the sibling skill \`${sibling}\`: ${needs}. Say in the body that this skill needs \`${sibling}\`, or copy the file into this skill.`,
    range: ref.range,
    data: { path: ref.path, kind: ref.kind, sibling, ...(resolved ? { resolved } : {}) },
  };
}

function backslash(ref: BodyReference, rel: string): Finding {
  return {
    rule: 'backslash-path',
    message: `\`${excerpt(ref.path)}\` uses \\ separators; on Linux and macOS that is one file name, not a path. Write \`${excerpt(rel)}\`.`,
    range: ref.range,
    data: { path: ref.path, fix: { title: `Write the path as '${rel}'`, edits: [{ range: ref.range, newText: rel }] } },
  };
}

/** The names the skill goes by: its `name` and its folder's. */
function skillNames(parsed: ParsedSkillFile, rootDir: string): string[] {
  const name = parsed.properties.name;
  return [...(typeof name === 'string' && name !== '' ? [name] : []), path.basename(rootDir)];
}

/** True when one of `texts` names a folder holding `rel` (`themes/`, `./canvas-fonts`): its files are then known. */
function folderMentioned(rel: string, texts: readonly string[]): boolean {
  for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) {
    const dir = rel.slice(0, i);
    if (texts.some((t) => t.includes(`${dir}/`) || t.includes(`./${dir}`) || t.includes(`\`${dir}\``))) return true;
  }
  return false;
}

/**
 * The secret rule over SKILL.md and every other text file of the skill, and (when `unreferenced`) the rule
 * for files no text of the skill mentions, by relative path or by file name. `skillFileText` false: SKILL.md's own
 * text is not scanned (it is still read for the mentions).
 */
export async function validateSecrets(parsed: ParsedSkillFile, skillFileName: string, rootDir: string, host: SkillsHost, index: TextIndex, out: Finding[], unreferenced = false, skillFileText = true): Promise<void> {
  if (skillFileText) report(scanSecrets(parsed.text), index, undefined, out);
  const files = await listSkillTextFiles(host, rootDir);
  const scan: PortabilityScan = { rootDir, host, skillFileName, folderName: path.basename(rootDir), files, out };
  if (skillFileText) await checkTextFile(scan, skillFileName, parsed.text, index);
  await checkSkillFolder(scan, parsed);
  const texts: string[] = [parsed.text];
  // Records of where the skill came from and manifests of the skill: for the tools that made them, not the model.
  const toolRecords = new Set<string>();
  const ownNames = skillNames(parsed, rootDir);
  for (const rel of files) {
    if (rel === skillFileName) continue;
    const text = await readTextFile(host, path.join(rootDir, rel), TEXT_FILE_MAX_BYTES);
    if (text === undefined) continue;
    texts.push(text);
    if (isToolRecord(rel, text, skillFileName, ownNames)) toolRecords.add(rel);
    const hits = scanSecrets(text);
    const fileIndex = new TextIndex(text);
    if (hits.length > 0) report(hits, fileIndex, rel, out);
    await checkTextFile(scan, rel, text, fileIndex);
  }
  checkCommands(scan, parsed, texts, index);
  if (!unreferenced) return;
  for (const rel of files) {
    // Files an agent reads by convention (Codex's agents/openai.yaml) are used without being mentioned, whichever agent is
    // linted for: they are not for the model, and deleting one breaks the agent that reads it.
    // Licences, package manifests, tests and evals/ (trigger sets, test cases) are for tools, the author and the
    // judge, never for the model: nothing mentions them.
    if (rel === skillFileName || isToolFile(rel) || isConventionFile(rel, AGENT_PROFILES)) continue;
    // A generated skill's record of where it came from, or a catalog's manifest of the skill, is for the tool that reads it.
    if (toolRecords.has(rel)) continue;
    const base = path.posix.basename(rel);
    const stem = base.replace(/\.[^.]+$/, '');
    // A module imported by name (`from helpers import x`) counts by its stem.
    const mentioned = texts.some((t) => t.includes(rel) || t.includes(base) || (stem.length >= 4 && t.includes(stem))) || folderMentioned(rel, texts);
    if (mentioned) continue;
    out.push({
      rule: 'file-unreferenced',
      message: `${rel} is not mentioned by SKILL.md or by any other file of the skill, so the model never learns it exists. Mention it where it is needed (e.g. "${/\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl|ps1|R)$/i.test(rel) ? 'run' : 'read'} \`${rel}\`"), or delete it.`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      file: rel,
      data: { path: rel },
    });
  }
}

function report(hits: ReturnType<typeof scanSecrets>, index: TextIndex, file: string | undefined, out: Finding[]): void {
  for (const h of hits) {
    const range = index.rangeOf(h.start, h.end);
    out.push({
      rule: 'secret-detected',
      message: `${file ?? 'SKILL.md'} line ${range.start.line + 1} appears to contain a ${h.kind} (${h.masked}). Skills must not contain credentials: remove it, rotate it, and read it from an environment variable.`,
      range,
      ...(file ? { file } : {}),
      data: { kind: h.kind, line: range.start.line + 1 },
    });
  }
}
