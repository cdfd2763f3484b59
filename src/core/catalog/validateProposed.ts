import { relativeInside } from '../paths/resolveInRoot';
import * as path from 'node:path';
import { readTextFile, type DirEntry, type SkillsHost } from '../host/skillsHost';
import { asyncLocalDisk } from '../host/localDisk';
import { parseSkillFile } from '../skill/parseSkillFile';
import type { SkillDiagnostic } from '../skill/skillTypes';
import { validateSkill } from '../skill/validateSkill';

/** A skill folder as it would be after a write: the source, then the overlay, then the proposed files on top. */
export interface ProposedSkill {
  /** Source folder of the skill (its name is the folder name the `name` field must match). */
  skillDir: string;
  /** Overlay folder of a read-only skill. */
  overlayDir?: string;
  /** Proposed contents by relative path (forward slashes). Must hold SKILL.md when it changes. */
  files: ReadonlyMap<string, string>;
  /** Where the skill and overlay are read (default the local disk). */
  host?: SkillsHost;
}

/** The outcome of validating a proposed write against the current state. */
export interface ProposedValidation {
  /** Diagnostics of the proposed state (lenient mode). */
  diagnostics: SkillDiagnostic[];
  /** Errors the proposed state has that the current state does not: the write would make the skill invalid. */
  newErrors: SkillDiagnostic[];
}

function virtualHost(p: ProposedSkill, withProposed: boolean): SkillsHost {
  const base = p.host ?? asyncLocalDisk;
  const root = path.resolve(p.skillDir);
  const relOf = (abs: string): string | undefined => {
    const rel = relativeInside(root, abs);
    return rel === '' ? undefined : rel;
  };
  const proposed = withProposed ? p.files : new Map<string, string>();
  const overlayPath = (rel: string) => (p.overlayDir ? path.join(p.overlayDir, ...rel.split('/')) : undefined);
  /** Where `abs` is read from: the overlay's copy when there is one, else the source. */
  const layered = async (abs: string): Promise<string> => {
    const rel = relOf(abs);
    const o = rel === undefined ? undefined : overlayPath(rel);
    return o && (await base.kind(o)) ? o : abs;
  };
  const proposedBytes = (rel: string | undefined): Uint8Array | undefined => {
    const text = rel === undefined ? undefined : proposed.get(rel);
    return text === undefined ? undefined : new TextEncoder().encode(text);
  };
  return {
    async readDirectory(abs) {
      const rel = relativeInside(root, abs);
      const listed = await base.readDirectory(abs);
      if (rel === undefined) return listed;
      const out = new Map<string, DirEntry>((listed ?? []).map((e) => [e.name, e]));
      const o = overlayPath(rel);
      for (const e of (o ? await base.readDirectory(o) : undefined) ?? []) out.set(e.name, e);
      const prefix = rel === '' ? '' : `${rel}/`;
      for (const k of proposed.keys()) {
        if (!k.startsWith(prefix)) continue;
        const [head, ...more] = k.slice(prefix.length).split('/');
        out.set(head, { name: head, kind: more.length ? 'directory' : 'file' });
      }
      return listed || out.size ? [...out.values()] : undefined;
    },
    async stat(abs) {
      const bytes = proposedBytes(relOf(abs));
      return bytes ? { mtimeMs: 0, size: bytes.length } : base.stat(await layered(abs));
    },
    async readFile(abs, options) {
      const bytes = proposedBytes(relOf(abs));
      if (!bytes) return base.readFile(await layered(abs), options);
      if (options?.maxBytes !== undefined && bytes.length > options.maxBytes) throw new Error(`${abs}: the proposed file is larger than ${options.maxBytes} bytes`);
      return { bytes, mtimeMs: 0, size: bytes.length };
    },
    async kind(abs) {
      const rel = relOf(abs);
      if (rel !== undefined) {
        if (proposed.has(rel)) return 'file';
        if ([...proposed.keys()].some((k) => k !== rel && relativeInside(rel, k) !== undefined)) return 'directory';
      }
      return base.kind(await layered(abs));
    },
    async realPath(abs) {
      return (await base.realPath(await layered(abs))) ?? (proposed.has(relOf(abs) ?? '') ? abs : undefined);
    },
  };
}

async function diagnosticsOf(p: ProposedSkill, withProposed: boolean): Promise<SkillDiagnostic[]> {
  const host = virtualHost(p, withProposed);
  const text = await readTextFile(host, path.join(p.skillDir, 'SKILL.md'), 64 * 1024 * 1024);
  if (text === undefined) {
    return [{ rule: 'skill-file-missing', severity: 'error', message: `${p.skillDir} has no SKILL.md.`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
  }
  const v = await validateSkill({ parsed: parseSkillFile(text), folderName: path.basename(p.skillDir), rootDir: p.skillDir, host }, { mode: 'lenient' });
  return v.diagnostics;
}

const keyOf = (d: SkillDiagnostic): string => `${d.rule}\0${d.file ?? 'SKILL.md'}\0${d.message}`;

/**
 * Validates the skill as it would be after the write (the core validator, lenient, with reference and
 * secret checks) and reports which errors the write would introduce. Errors the skill already had do
 * not block an edit, so a broken skill can be repaired step by step.
 */
export async function validateProposed(p: ProposedSkill, options: { isNew?: boolean } = {}): Promise<ProposedValidation> {
  const after = await diagnosticsOf(p, true);
  const before = options.isNew ? new Set<string>() : new Set((await diagnosticsOf(p, false)).filter((d) => d.severity === 'error').map(keyOf));
  return { diagnostics: after, newErrors: after.filter((d) => d.severity === 'error' && !before.has(keyOf(d))) };
}
