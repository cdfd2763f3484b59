import * as path from 'node:path';
import { UnreadableFileError } from '../os/readRegularFile';
import { relativeInside, resolveInRoot } from '../paths/resolveInRoot';
import { parseSkillText } from '../skill/parseSkillText';
import { effectiveSkillName } from '../skill/validateFrontmatter';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from '../skill/skillTypes';
import { asBuffer, type FileRead, type FileStamp, type MaybePromise, type ReadOptions, type SkillsHost } from '../host/skillsHost';
import { digestSource, LoadedSkill } from './loadedSkill';
import { FILE_SUFFIXES, SKILL_FILE_NAMES, type SkillFileIndex } from './skillFileNames';
import { baseSkillId } from './skillId';
import type { SkillRoot } from './registryTypes';
import { checkFailed, failure, isPromise, NO_DIAGNOSTICS, type SkillChecker, type SkillCheckInput } from './skillChecker';

export { SKILL_FILE_NAMES, FILE_SUFFIXES } from './skillFileNames';

export { isPromise, parseOnlyChecker, type SkillChecker, type SkillCheckInput } from './skillChecker';

/**
 * Reads and checks the skill in `skillDir`, or returns `undefined` when the folder holds neither
 * SKILL.md nor skill.md. A file that cannot be read or parsed still gives a (broken) skill.
 * Stays synchronous when the host and the checker answer synchronously (the default Node host and
 * the validator do): a cold scan of thousands of skills then creates no promise per skill.
 * `stampless`: read without asking the file's stamp where the host can (a cold scan: see {@link ReadOptions.stampless});
 * the skill then has no mtime until a rescan compares its content once (`LoadedSkill.sameContent`).
 */
export function loadSkill(
  host: SkillsHost,
  root: SkillRoot,
  skillDir: string,
  mode: ValidationMode,
  check: SkillChecker,
  folderName = path.basename(skillDir),
  stampless = false,
): MaybePromise<LoadedSkill | undefined> {
  return loadFile(host, root, skillDir, folderName, mode, check, 0, stampless);
}

function loadFile(host: SkillsHost, root: SkillRoot, skillDir: string, folderName: string, mode: ValidationMode, check: SkillChecker, which: number, stampless: boolean): MaybePromise<LoadedSkill | undefined> {
  if (which >= SKILL_FILE_NAMES.length) return undefined;
  const fileName = SKILL_FILE_NAMES[which];
  // skillDir is already absolute and normalized, and fileName has no separator: no need for path.join.
  // The separator and name are one constant: one concatenation per skill instead of two.
  const location = skillDir + FILE_SUFFIXES[which];
  let read: MaybePromise<FileRead | undefined>;
  try {
    read = readHeld(host, root, location, stampless);
  } catch (e) {
    return unreadable(root, skillDir, location, which as SkillFileIndex, folderName, e);
  }
  if (isPromise(read)) {
    return read.then(
      (r) => (r ? checkRead(r, root, skillDir, location, which as SkillFileIndex, fileName, folderName, mode, check) : loadFile(host, root, skillDir, folderName, mode, check, which + 1, stampless)),
      (e: unknown) => unreadable(root, skillDir, location, which as SkillFileIndex, folderName, e),
    );
  }
  return read ? checkRead(read, root, skillDir, location, which as SkillFileIndex, fileName, folderName, mode, check) : loadFile(host, root, skillDir, folderName, mode, check, which + 1, stampless);
}

/**
 * Reads a skill file. In an Agent Plugin's root every file must stay inside the plugin through links (§4.1): the
 * file is opened without following a link, and only a link (ELOOP) pays for its real path, which must lie inside.
 */
export function readHeld(host: SkillsHost, root: SkillRoot, location: string, stampless = false): MaybePromise<FileRead | undefined> {
  if (!root.plugin) return host.readFile(location, stampless ? STAMPLESS : undefined);
  const plugin = root.plugin.root;
  let read: MaybePromise<FileRead | undefined>;
  try {
    read = host.readFile(location, stampless ? NO_FOLLOW_STAMPLESS : NO_FOLLOW);
  } catch (e) {
    return viaLink(host, plugin, location, e);
  }
  // No closure made for the common case (a plain file read at once).
  return isPromise(read) ? read.catch((e: unknown) => viaLink(host, plugin, location, e)) : read;
}

/** After a refused no-follow open: a link (ELOOP) is read only when its real path lies inside the plugin. */
function viaLink(host: SkillsHost, plugin: string, location: string, e: unknown): MaybePromise<FileRead | undefined> {
  if ((e as NodeJS.ErrnoException).code !== 'ELOOP') throw e;
  const rel = relativeInside(plugin, location);
  const held = rel === undefined ? undefined : resolveInRoot(plugin, rel);
  if (!held?.ok) throw Object.assign(new Error(`${location} is a link that leads outside the plugin folder ${plugin} (Agent Plugins 1.0 §4.1); the skill is not loaded. Replace the link with the file.`), { code: OUTSIDE });
  return host.readFile(location);
}

const NO_FOLLOW: ReadOptions = { noFollow: true };
const STAMPLESS: ReadOptions = { stampless: true };
const NO_FOLLOW_STAMPLESS: ReadOptions = { noFollow: true, stampless: true };
/** The code of a refusal whose message already says everything (no "check the permissions"). */
const OUTSIDE = 'EOUTSIDE';

function checkRead(
  read: FileRead,
  root: SkillRoot,
  skillDir: string,
  location: string,
  file: SkillFileIndex,
  fileName: string,
  folderName: string,
  mode: ValidationMode,
  check: SkillChecker,
): MaybePromise<LoadedSkill> {
  // One Buffer, decoded once; hashed when the digest is first asked for (see LoadedSkill).
  const bytes = asBuffer(read.bytes);
  // Ranges only when a finding needs one: most skills have none, and the parsed file is not kept.
  // toString() without arguments is Node's shortest path to utf8Slice (no encoding lookup).
  const text = bytes.toString();
  const parsed = parseSkillText(text, true);
  const kept = digestSource(bytes, text);
  const input: SkillCheckInput = { parsed, skillDir, folderName, fileName, mode };
  let checked: MaybePromise<SkillDiagnostic[]> | undefined;
  try {
    // A skill the checker finds no error in is usable: its findings are made from its kept text when asked for.
    checked = typeof kept === 'string' && check.findsNoError?.(input) ? undefined : check(input);
  } catch (e) {
    checked = checkFailed(parsed, location, e);
  }
  if (checked === undefined) return loaded(read, parsed, check, kept, root, skillDir, file, folderName, mode);
  if (isPromise(checked)) {
    return checked.then(
      (d) => loaded(read, parsed, d, kept, root, skillDir, file, folderName, mode),
      (e: unknown) => loaded(read, parsed, checkFailed(parsed, location, e), kept, root, skillDir, file, folderName, mode),
    );
  }
  return loaded(read, parsed, checked, kept, root, skillDir, file, folderName, mode);
}

function loaded(
  read: FileRead,
  parsed: ParsedSkillFile,
  /** The checker's findings, or the checker itself when it found no error and is asked later (see checkLater). */
  diagnostics: SkillDiagnostic[] | SkillChecker,
  /** What the skill keeps for its digest: the file's text, or its bytes (see digestSource). */
  kept: Uint8Array | string,
  root: SkillRoot,
  skillDir: string,
  file: SkillFileIndex,
  folderName: string,
  mode: ValidationMode,
): LoadedSkill {
  // The kept strings are slices of the file's text. When the text is not kept for the digest (a large
  // file), they get their own copies, so the whole text is not kept alive by them instead.
  const props = typeof kept === 'string' ? parsed.properties : ownStrings(parsed.properties);
  const found = typeof diagnostics === 'function' ? undefined : diagnostics;
  const name = effectiveSkillName(props, folderName);
  return new LoadedSkill(
    {
      id: baseSkillId(root, name),
      name,
      description: typeof props.description === 'string' ? props.description : '',
      file,
      rootDir: skillDir,
      root,
      properties: props,
      // Most skills have no finding: they share one frozen empty list instead of each keeping its own.
      diagnostics: found === undefined ? diagnostics : found.length === 0 ? NO_DIAGNOSTICS : found,
      status: found !== undefined && hasError(found) ? 'broken' : 'ok',
      mode,
      mtimeMs: read.mtimeMs,
      size: read.size,
    },
    kept,
  );
}

/**
 * A copy of frontmatter values whose strings do not hold on to the file's text. (V8 makes a slice of 13 or
 * more characters a view of the text; a slice of a fresh concatenation is a view of that copy instead.)
 */
function ownStrings<T>(value: T): T {
  if (typeof value === 'string') return (value.length < 13 ? value : (' ' + value).slice(1)) as T;
  if (Array.isArray(value)) return value.map(ownStrings) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = ownStrings(v);
    return out as T;
  }
  return value;
}

function hasError(diagnostics: readonly SkillDiagnostic[]): boolean {
  for (const d of diagnostics) if (d.severity === 'error') return true;
  return false;
}

/** A special file or an oversized one says what it is (its own message); other errors are I/O or permissions. */
function unreadableMessage(location: string, e: unknown): string {
  if (e instanceof UnreadableFileError || (e as NodeJS.ErrnoException).code === OUTSIDE) return (e as Error).message;
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return `Cannot read ${location} (${code}: ${(e as Error).message}). Check the file's permissions.`;
}

function unreadable(root: SkillRoot, skillDir: string, location: string, file: SkillFileIndex, folderName: string, e: unknown): LoadedSkill {
  return new LoadedSkill(
    {
      id: baseSkillId(root, folderName),
      name: folderName,
      description: '',
      file,
      rootDir: skillDir,
      root,
      properties: {},
      diagnostics: [failure('skill-unreadable', unreadableMessage(location, e))],
      status: 'broken',
      mtimeMs: -1,
      size: -1,
    },
    undefined,
  );
}
