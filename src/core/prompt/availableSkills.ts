/**
 * The `<available_skills>` block of the Agent Skills specification: one `<skill>` entry per skill with
 * its name, description and location. Shared by `agent-skills prompt` and the runtime's prompt composer.
 */

/** One skill as listed to the model. */
export interface AvailableSkill {
  name: string;
  description: string;
  /** Absolute path of SKILL.md; omitted when the host hides locations. */
  location?: string;
}

import { stripControlChars } from './contentFence';

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for XML attribute values, quotes included; control characters are dropped. */
export function escapeXml(s: string): string {
  return stripControlChars(s).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

/**
 * Escapes text for XML element content: only `&`, `<` and `>` need it there, and the model pays tokens for every
 * entity, so quotes and apostrophes stay as they are. Control characters are dropped.
 */
export function escapeXmlText(s: string): string {
  return stripControlChars(s).replace(/[&<>]/g, (c) => XML_ESCAPES[c]);
}

/** One `<skill>` entry. The description is flattened to one line so entries are easy to count and cut. */
export function renderSkillEntry(s: AvailableSkill): string {
  const lines = ['<skill>', `<name>${escapeXmlText(s.name)}</name>`, `<description>${escapeXmlText(s.description.replace(/\s+/g, ' ').trim())}</description>`];
  if (s.location) lines.push(`<location>${escapeXmlText(s.location)}</location>`);
  lines.push('</skill>');
  return lines.join('\n');
}

/** The whole block for these skills, in the order given. */
export function renderAvailableSkills(skills: readonly AvailableSkill[]): string {
  return ['<available_skills>', ...skills.map(renderSkillEntry), '</available_skills>'].join('\n');
}
