/**
 * Remembers which problems were already told, so a problem that every scan finds again (a folder that is not a
 * plugin, a bad mcp.json, a bad configuration file) reaches the user once, not on every scan.
 */
export class ReportOnce {
  private readonly told = new Set<string>();

  /** The items not told before (by `keyOf`), now remembered as told. */
  fresh<T>(items: Iterable<T>, keyOf: (item: T) => string): T[] {
    const out: T[] = [];
    for (const item of items) {
      const key = keyOf(item);
      if (this.told.has(key)) continue;
      this.told.add(key);
      out.push(item);
    }
    return out;
  }

  /** Forgets everything told (after a configuration reload, everything may be told again). */
  clear(): void {
    this.told.clear();
  }
}

/** The key of a problem found in a file: the same message about the same file is the same problem. */
export const fileProblemKey = (p: { file: string; message: string }): string => `${p.file}\0${p.message}`;
