import { escapeXml } from './catalog';
import { fenceContent, fenceLabel } from './contentFence';
import type { LoadedDoc, LoadedSkillContent } from './promptTypes';

/** One doc in seed 002's file content format. */
export function renderDoc(doc: LoadedDoc): string {
  // Content is fenced: it cannot end itself early with a marker line of its own (see contentFence).
  const label = fenceLabel(doc.path);
  return `--- Content from ${label} ---\n\n${fenceContent(doc.content)}\n\n--- End of ${label} ---`;
}

/** A loaded skill's body (and optionally its docs) as a `<skill name="...">` block. */
export function renderSkillBlock(name: string, body: string | undefined, docs: readonly LoadedDoc[]): string {
  const parts: string[] = [];
  // The body is fenced: a `</skill>` of its own cannot close this block (see contentFence).
  if (body !== undefined) parts.push(fenceContent(body));
  for (const d of docs) parts.push(renderDoc(d));
  return `<skill name="${escapeXml(name)}">\n${parts.join('\n\n')}\n</skill>`;
}

/**
 * Seed 000's `<active_skills>` block: each loaded skill in load order, later skills winning on conflict.
 * `parts` chooses per skill whether its body, its docs, or both go here (the rest went to tool results).
 */
export function renderActiveSkills(skills: readonly LoadedSkillContent[], parts: (s: LoadedSkillContent) => { body: boolean; docs: boolean } = () => ({ body: true, docs: true })): string {
  const blocks: string[] = [];
  for (const s of skills) {
    const p = parts(s);
    if (!p.body && (!p.docs || !s.docs.length)) continue;
    blocks.push(renderSkillBlock(s.name, p.body ? s.body : undefined, p.docs ? s.docs : []));
  }
  if (!blocks.length) return '';
  return ['<active_skills>', 'These skills are loaded, in load order; if their instructions conflict, the later one wins.', ...blocks, '</active_skills>'].join('\n');
}
