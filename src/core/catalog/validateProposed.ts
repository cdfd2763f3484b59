import { relativeInside } from '../paths/resolveInRoot';
import * as path from 'node:path';
import { nodeFilesHost, type SkillDirEntry, type SkillFilesHost } from '../skill/filesHost';
import { parseSkillFile } from '../skill/parseSkillFile';
import type { SkillDiagnostic } from '../skill/types';
import { validateSkill } from '../skill/validateSkill';

/** A skill folder as it would be after a write: the source, then the overlay, then the proposed files on top. */
export interface ProposedSkill {
  /** Source folder of the skill (its name is the folder name the `name` field must match). */
  skillDir: string;
  /** Overlay folder of a read-only skill. */
  overlayDir?: string;
  /** Proposed contents by relative path (forward slashes). Must hold SKILL.md when it changes. */
  files: ReadonlyMap<string, string>;
}

/** The outcome of validating a proposed write against the current state. */
export interface ProposedValidation {
  /** Diagnostics of the proposed state (lenient mode). */
  diagnostics: SkillDiagnostic[];
  /** Errors the proposed state has that the current state does not: the write would make the skill invalid. */
  newErrors: SkillDiagnostic[];
}

function virtualHost(p: ProposedSkill, withProposed: boolean): SkillFilesHost {
  const root = path.resolve(p.skillDir);
  const relOf = (abs: string): string | undefined => relativeInside(root, abs);
  const proposed = withProposed ? p.files : new Map<string, string>();
  const overlayPath = (rel: string) => (p.overlayDir ? path.join(p.overlayDir, ...rel.split('/')) : undefined);
  return {
    async stat(abs) {
      const rel = relOf(abs);
      if (rel !== undefined && rel !== '') {
        if (proposed.has(rel)) return 'file';
        if ([...proposed.keys()].some((k) => k.startsWith(`${rel}/`))) return 'directory';
        const o = overlayPath(rel);
        const st = o ? await nodeFilesHost.stat(o) : undefined;
        if (st) return st;
      }
      return nodeFilesHost.stat(abs);
    },
    async readDir(abs) {
      const rel = relOf(abs);
      const base = await nodeFilesHost.readDir(abs);
      if (rel === undefined) return base;
      const out = new Map<string, SkillDirEntry>((base ?? []).map((e) => [e.name, e]));
      const o = overlayPath(rel);
      for (const e of (o ? await nodeFilesHost.readDir(o) : undefined) ?? []) out.set(e.name, e);
      const prefix = rel === '' ? '' : `${rel}/`;
      for (const k of proposed.keys()) {
        if (!k.startsWith(prefix)) continue;
        const [head, ...more] = k.slice(prefix.length).split('/');
        out.set(head, { name: head, kind: more.length ? 'directory' : 'file' });
      }
      return base || out.size ? [...out.values()] : undefined;
    },
    async readText(abs, maxBytes) {
      const rel = relOf(abs);
      if (rel !== undefined && rel !== '') {
        const text = proposed.get(rel);
        if (text !== undefined) return text;
        const o = overlayPath(rel);
        const fromOverlay = o ? await nodeFilesHost.readText(o, maxBytes) : undefined;
        if (fromOverlay !== undefined) return fromOverlay;
      }
      return nodeFilesHost.readText(abs, maxBytes);
    },
  };
}

async function diagnosticsOf(p: ProposedSkill, withProposed: boolean): Promise<SkillDiagnostic[]> {
  const host = virtualHost(p, withProposed);
  const text = await host.readText(path.join(p.skillDir, 'SKILL.md'), 64 * 1024 * 1024);
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
