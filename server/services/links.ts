import * as path from 'node:path';
import type { DocumentLink, Location, Position, Range } from 'vscode-languageserver';
import type { SyncSkillsHost } from '../../src/core/host/skillsHost';
import type { SkillAnalysis } from '../skillAnalysis';
import type { SkillReference } from '../skillCore';
import { resolveInRootOn } from '../../src/core/paths/resolveInRoot';
import { pathToUri } from '../uris';

/** A body reference resolved against the skill folder. */
export interface ResolvedReference {
  ref: SkillReference;
  /** Absolute path of the target. */
  targetPath: string;
  /** True when the target stays inside the skill folder. */
  inside: boolean;
  /** Size in bytes when the target exists and is a file. */
  size?: number;
  exists: boolean;
}

export function containsPosition(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}

export function resolveReference(a: SkillAnalysis, ref: SkillReference, fsys: SyncSkillsHost): ResolvedReference | undefined {
  if (!a.skillDir) return undefined;
  let target = ref.target;
  try {
    target = decodeURIComponent(target);
  } catch {
    // Keep the text as written when it is not valid percent-encoding.
  }
  // A link's target is a URI reference, decoded once above into the path it names; the path rule decides the rest
  // (`..` that climbs out, absolute, `~`, and a link such as `references -> /etc` judged by where it really leads).
  const r = resolveInRootOn(fsys, a.skillDir, target, { mustExist: false, allowRoot: true });
  const inside = r.ok || r.reason === 'root-missing';
  const targetPath = r.ok ? path.join(a.skillDir, ...r.rel.split('/').filter(Boolean)) : path.resolve(a.skillDir, target);
  const kind = fsys.kind(targetPath);
  return { ref, targetPath, inside, exists: kind !== undefined, size: kind === 'file' ? fileSize(fsys, targetPath) : undefined };
}

function fileSize(fsys: SyncSkillsHost, file: string): number | undefined {
  try {
    return fsys.stat(file)?.size;
  } catch {
    return undefined;
  }
}

/** Links for every body reference whose target exists inside the skill folder (missing or outside ones are problems instead). */
export function documentLinks(a: SkillAnalysis, fsys: SyncSkillsHost): DocumentLink[] {
  const out: DocumentLink[] = [];
  for (const ref of a.references) {
    const r = resolveReference(a, ref, fsys);
    if (r && r.exists && r.inside) out.push({ range: ref.range, target: pathToUri(r.targetPath), tooltip: `Open ${ref.target}` });
  }
  return out;
}

/** The reference under the cursor, if any. */
export function referenceAt(a: SkillAnalysis, pos: Position): SkillReference | undefined {
  return a.references.find((r) => containsPosition(r.range, pos));
}

/** Go to the file a relative reference names (start of file), when it exists inside the skill folder. */
export function definition(a: SkillAnalysis, pos: Position, fsys: SyncSkillsHost): Location | undefined {
  const ref = referenceAt(a, pos);
  if (!ref) return undefined;
  const r = resolveReference(a, ref, fsys);
  if (!r || !r.exists || !r.inside) return undefined;
  const zero = { line: 0, character: 0 };
  return { uri: pathToUri(r.targetPath), range: { start: zero, end: zero } };
}
