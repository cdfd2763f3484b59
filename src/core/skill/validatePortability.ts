import * as path from 'node:path';
import { extractBodyReferences } from './bodyReferences';
import type { Finding } from './findings';
import { answerOrUndefined, remembered, type SkillsHost } from '../host/skillsHost';
import { fencedBlocks } from './markdownBlocks';
import { SKIP, walkSkill } from '../paths/walkSkill';
import { relativeInside } from '../paths/resolveInRoot';
import { undeclaredCommands } from './rules/undeclaredPrograms';
import { licenseFileNamed, licenseTypo } from './rules/license';
import { ARCHIVE_FILE, bareScriptRuns, commentOpener, installPaths, personalPaths, printedSecrets, type TextHit } from './rules/portability';
import { closestPath } from './similarPaths';
import { TextIndex } from './textIndex';
import type { ParsedSkillFile } from './skillTypes';

/** What the per-file portability checks need to know of the skill. */
export interface PortabilityScan {
  rootDir: string;
  host: SkillsHost;
  /** The skill's file name (`SKILL.md`). */
  skillFileName: string;
  /** The skill's folder name: the `<name>` of `.claude/skills/<name>/`. */
  folderName: string;
  /** The skill's text files, relative to the root. */
  files: readonly string[];
  out: Finding[];
}

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
/** Folders whose Markdown is copied into the user's project (templates, examples): its links are the project's, not the skill's. */
const TEMPLATE_FOLDER = /^(?:assets|templates?|examples?|boilerplates?)\//i;

/**
 * The portability rules and the link check of one text file of the skill (`rel`; SKILL.md included, whose
 * own references validateReferences checks): personal paths in any file; in Markdown, hard-coded install
 * paths, scripts run without their folder, secrets printed into the conversation, and (outside SKILL.md)
 * links to files that do not exist.
 */
export async function checkTextFile(scan: PortabilityScan, rel: string, text: string, index?: TextIndex): Promise<void> {
  const idx = index ?? new TextIndex(text);
  const isSkillFile = rel === scan.skillFileName;
  const where = (h: TextHit) => ({ range: idx.rangeOf(h.start, h.end), ...(isSkillFile ? {} : { file: rel }) });
  for (const h of personalPaths(text, commentOpener(rel), idx)) {
    scan.out.push({
      rule: 'personal-path',
      message: `${rel} names \`${h.text}\`, a folder in the home of user '${h.detail}': it exists on one machine only. Ship the file in the skill and refer to it relative to the skill folder, or take the path as an argument or environment variable.`,
      ...where(h),
      data: { path: h.text, user: h.detail },
    });
  }
  if (!MARKDOWN.test(rel)) return;
  const installs = installPaths(text, scan.folderName);
  if (installs.length > 0) {
    const h = installs[0];
    scan.out.push({
      rule: 'install-path-hardcoded',
      message: `${rel} reaches the skill's files through \`${h.text}\`${installs.length > 1 ? ` (and ${installs.length - 1} more time${installs.length > 2 ? 's' : ''})` : ''}, which holds only where the skill is installed under ${h.detail}. Refer to them relative to the skill folder (or through \${CLAUDE_SKILL_DIR} in Claude Code).`,
      ...where(h),
      data: { path: h.text },
    });
  }
  for (const h of printedSecrets(text, fencedBlocks(text, idx, 0).blocks, idx)) {
    scan.out.push({
      rule: 'secret-printed',
      message: `\`${h.text.trim()}\` prints the secret in ${h.detail} into the conversation, where the model reads it and the transcript keeps it. Check that it is set without printing it: \`[ -n "$${h.detail}" ] && echo set\`.`,
      ...where(h),
      data: { variable: h.detail },
    });
  }
  const blocks = fencedBlocks(text, idx, 0).blocks;
  const dir = path.posix.dirname(rel);
  const reported = new Set<string>();
  for (const h of bareScriptRuns(text, blocks, idx)) {
    const name = h.detail;
    if (reported.has(name) || scan.files.includes(name) || (dir !== '.' && scan.files.includes(`${dir}/${name}`))) continue;
    const homes = scan.files.filter((f) => f.endsWith(`/${name}`));
    if (homes.length !== 1) continue;
    reported.add(name);
    scan.out.push({
      rule: 'script-path-incomplete',
      message: `\`${h.text}\` runs ${name} from the current folder, but the skill has it at ${homes[0]}: the command fails. Write \`${homes[0]}\` (relative to the skill folder).`,
      ...where(h),
      data: { script: name, path: homes[0], fix: { title: `Write '${homes[0]}'`, edits: [{ range: idx.rangeOf(h.start, h.end), newText: homes[0] }] } },
    });
  }
  if (!isSkillFile && !TEMPLATE_FOLDER.test(rel)) await checkLinks(scan, rel, text, idx);
}

/** Links of a Markdown file other than SKILL.md to files of the skill that do not exist (links out of the skill are left alone). */
async function checkLinks(scan: PortabilityScan, rel: string, text: string, index: TextIndex): Promise<void> {
  const dir = path.posix.dirname(rel);
  const seen = new Set<string>();
  for (const ref of extractBodyReferences({ text, body: text }, { index })) {
    if (ref.kind !== 'link') continue;
    const written = ref.path.replace(/\\/g, '/');
    // Inside or out by the one path rule (`..notes.md` is a file of the skill; `../x` leaves it).
    const target = relativeInside(scan.rootDir, path.join(scan.rootDir, dir, written));
    if (target === undefined || target === '' || seen.has(target)) continue;
    seen.add(target);
    if (await answerOrUndefined(() => scan.host.kind(path.join(scan.rootDir, target)))) continue;
    // Written relative to the skill folder, as SKILL.md's paths are (`references/x.md` from references/a.md): the model finds it.
    const fromRoot = relativeInside(scan.rootDir, path.join(scan.rootDir, written));
    if (fromRoot !== undefined && (await answerOrUndefined(() => scan.host.kind(path.join(scan.rootDir, fromRoot))))) continue;
    const suggestion = closestPath(target, scan.files);
    const relToFile = suggestion ? path.posix.relative(dir, suggestion) : undefined;
    scan.out.push({
      rule: 'reference-missing',
      message: `\`${ref.path}\` (link in ${rel}) does not exist in the skill folder.${relToFile ? ` Did you mean \`${relToFile}\`?` : ` Fix the link (relative to ${dir === '.' ? 'the skill folder' : `${dir}/`}) or add the file.`}`,
      range: ref.range,
      file: rel,
      data: { path: ref.path, kind: ref.kind, ...(relToFile ? { suggestion: relToFile } : {}) },
    });
  }
}

/** The folder-level portability rules: archives shipped in the skill, and `license` naming a file it lacks or misspelling an SPDX id. */
export async function checkSkillFolder(scan: PortabilityScan, parsed: ParsedSkillFile): Promise<void> {
  const walk = () => walkSkill(scan.host, scan.rootDir, { skipDirs: [...SKIP.vcs, ...SKIP.dependencies], include: (rel) => ARCHIVE_FILE.test(rel), maxFiles: 50, maxDepth: 6 });
  const archives = await remembered(scan.host, scan.rootDir, 'archives', '', walk);
  for (const rel of archives) {
    scan.out.push({
      rule: 'archive-shipped',
      message: `${rel} is an archive: hosts do not unpack it, the model cannot read inside it, and reviewers cannot see what it holds. Ship its files unpacked, or have a script fetch and check it when needed.`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      file: rel,
      data: { path: rel },
    });
  }
  const license = parsed.fields.find((f) => f.key === 'license');
  const value = parsed.properties.license;
  if (!license || typeof value !== 'string') return;
  const named = licenseFileNamed(value);
  if (named && !(await answerOrUndefined(() => scan.host.kind(path.join(scan.rootDir, named))))) {
    scan.out.push({
      rule: 'license-file-missing',
      message: `\`license\` names ${named}, which the skill does not ship: installed on its own, the skill has no licence text. Copy the licence file into the skill folder, or write an SPDX id (e.g. \`MIT\`).`,
      range: license.valueRange,
      data: { field: 'license', file: named },
    });
  }
  const typo = licenseTypo(value);
  if (typo) {
    scan.out.push({
      rule: 'license-unknown',
      message: `\`license\` says '${typo.word}', which is not an SPDX licence id. Did you mean \`${typo.id}\`?`,
      range: license.valueRange,
      data: { field: 'license', word: typo.word, suggestion: typo.id },
    });
  }
}

/**
 * Programs SKILL.md keeps running that the skill never introduces (`command-undeclared`): `texts` are every text of
 * the skill, SKILL.md first.
 */
export function checkCommands(scan: PortabilityScan, parsed: ParsedSkillFile, texts: readonly string[], index: TextIndex): void {
  const prop = (k: string) => {
    const v = parsed.properties[k];
    return typeof v === 'string' ? v : '';
  };
  const blocks = fencedBlocks(parsed.text, index, 0).blocks;
  // Any field but the name may declare it: `compatibility`, `allowed-tools`, a host's `metadata` (requires: bins).
  // The name is only the skill's label: a skill named after the program it runs still has to say where it comes from.
  const declared = parsed.fields.filter((f) => f.key !== 'name' && f.key !== 'description').map((f) => JSON.stringify(f.value) ?? '').join(' ');
  const ctx = { description: prop('description'), declared, texts, files: scan.files, names: [prop('name'), scan.folderName].filter(Boolean) };
  for (const use of undeclaredCommands(parsed.text, blocks, ctx)) {
    scan.out.push({
      rule: use.own ? 'own-command-undeclared' : 'command-undeclared',
      message: `SKILL.md runs \`${use.command}\` (${use.runs} times, first \`${use.line}\`)${use.own ? ', the program this skill is named for,' : ''} but never says where it comes from: the skill does not ship, install or link it, and neither \`compatibility\` nor the description names it. A user without it gets "command not found". Add an install step, or name it and its source in \`compatibility\` (e.g. \`compatibility: Requires ${use.command} (<where to get it>)\`).`,
      range: index.rangeOf(use.start, use.end),
      data: { command: use.command, runs: use.runs },
    });
  }
}
