/**
 * The registry's recent changes by generation, so a follower (the skill index) can ask what changed since the
 * generation it last saw and read only those records, instead of walking every skill.
 */

/** How many generations are remembered; a follower further behind compares the whole snapshot instead. */
const KEPT_GENERATIONS = 64;

/** What changed over some generations: record ids (any status), and the names those records had or have. */
export interface RegistryChanges {
  ids: string[];
  names: string[];
}

export class ChangeLog {
  readonly #entries: { generation: number; ids: readonly string[]; names: readonly string[] }[] = [];

  /** Notes that `generation` added, changed or removed `ids`, of skills named `names` (before or after). */
  note(generation: number, ids: readonly string[], names: readonly string[]): void {
    this.#entries.push({ generation, ids, names });
    if (this.#entries.length > KEPT_GENERATIONS) this.#entries.shift();
  }

  /**
   * The ids and names touched after generation `since` up to `current`, each once; undefined when `since` is not a
   * generation this log can answer for (older than it remembers, or in the future): the caller compares everything.
   */
  since(since: number, current: number): RegistryChanges | undefined {
    if (!Number.isInteger(since) || since > current) return undefined;
    if (since === current) return { ids: [], names: [] };
    const first = this.#entries.findIndex((e) => e.generation > since);
    // Every generation after `since` must be in the log: the first kept one is exactly the next.
    if (first < 0 || this.#entries[first].generation !== since + 1) return undefined;
    const ids = new Set<string>();
    const names = new Set<string>();
    for (let i = first; i < this.#entries.length; i++) {
      for (const id of this.#entries[i].ids) ids.add(id);
      for (const name of this.#entries[i].names) names.add(name);
    }
    return { ids: [...ids], names: [...names] };
  }
}
