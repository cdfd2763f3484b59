import type { SkillRecord } from './registryTypes';

/** Base class of the errors `resolve` throws; `code` is stable for front ends. */
export class SkillRegistryError extends Error {
  constructor(
    readonly code: 'not-found' | 'ambiguous' | 'broken',
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** No skill has the name or id asked for. */
export class SkillNotFoundError extends SkillRegistryError {
  constructor(
    readonly query: string,
    /** The closest known names, best first. */
    readonly suggestions: string[],
  ) {
    const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : ' Run `agent-skills list` to see the discovered skills.';
    super('not-found', `No skill named '${query}' was found.${hint}`);
  }
}

/** Several skills of the same name in the same scope: none is used until one is renamed or removed. */
export class AmbiguousSkillError extends SkillRegistryError {
  constructor(
    readonly query: string,
    readonly ids: string[],
    readonly locations: string[],
  ) {
    super(
      'ambiguous',
      `The skill name '${query}' is ambiguous: ${ids.map((id, i) => `${id} (${locations[i]})`).join(', ')}. Rename or remove all but one of them, or ask for one by id.`,
    );
  }
}

/** The only skill of that name (or the id asked for) is broken. */
export class BrokenSkillError extends SkillRegistryError {
  constructor(readonly record: SkillRecord) {
    const first = record.diagnostics.find((d) => d.severity === 'error');
    super('broken', `The skill '${record.id}' (${record.location}) cannot be used: ${first?.message ?? 'it has errors'}`);
  }
}
