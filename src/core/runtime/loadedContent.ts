import type { CatalogSkill, LoadedSkillContent } from '../prompt/promptTypes';
import { effectiveDocFiles, effectiveLocation, effectiveRoot } from './effectiveFiles';
import type { SkillContentCache } from './skillContent';
import type { SessionState, SkillSource } from './runtimeTypes';

/**
 * The catalog entries for a session: every usable skill, with its last use before the current turn
 * (so ranking, and thus the catalog, cannot shift in the middle of a tool loop).
 */
export function catalogFor(source: SkillSource, session: SessionState | undefined): CatalogSkill[] {
  const cutoff = session ? Date.parse(session.turn_started_at) : 0;
  return source.list().map((r) => {
    const used = session?.last_used[r.name];
    const t = used ? Date.parse(used) : undefined;
    return {
      name: r.name,
      description: r.description,
      location: r.location,
      scope: r.scope,
      ...(t !== undefined && t < cutoff ? { lastUsed: t } : {}),
    };
  });
}

/**
 * Reads the bodies and selected docs of the session's loaded skills (skipping `once` skills already
 * shown). A SKILL.md edited since its load is used as it is now, with a warning; a doc that vanished
 * is skipped with a warning. With a `source` that keeps overlays, a file edited there since the load is read
 * from the overlay (its newest revision).
 */
export async function loadedContentFor(session: SessionState, cache: SkillContentCache, source?: SkillSource): Promise<{ active: LoadedSkillContent[]; warnings: string[] }> {
  const warnings: string[] = [];
  const active: LoadedSkillContent[] = [];
  for (const a of session.active_skills) {
    if (a.offloaded) continue;
    let file;
    try {
      file = await cache.skillFile(a.name, source ? await effectiveLocation(cache.files, source, a) : a.location);
    } catch (e) {
      warnings.push(`Skill '${a.name}' could not be read (${(e as Error).message}); it is left out of this call.`);
      continue;
    }
    if (file.digest !== a.digest) warnings.push(`Skill '${a.name}' changed on disk since it was loaded (${a.digest} -> ${file.digest}); the current text is used.`);
    const paths = a.docs === '*' ? (await effectiveDocFiles(cache.files, source, a)).map((d) => d.path) : a.docs;
    const docs: LoadedSkillContent['docs'] = [];
    for (const p of paths) {
      try {
        docs.push({ path: p, content: await cache.doc(a.name, source ? await effectiveRoot(cache.files, source, a, p) : a.root_dir, p) });
      } catch (e) {
        warnings.push(`Doc '${p}' of skill '${a.name}' was skipped: ${(e as Error).message}`);
      }
    }
    active.push({
      name: a.name,
      body: file.body,
      docs,
      ...(a.load_call_id ? { loadCallId: a.load_call_id } : {}),
      ...(a.docs_call_id ? { docsCallId: a.docs_call_id } : {}),
    });
  }
  return { active, warnings };
}
