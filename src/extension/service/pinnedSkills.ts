/**
 * Skills the user loaded by hand (tree, command, `/load`) since a session's last turn began: in `turn` and
 * `once` mode they are kept through the next `@skills` turn, which the user loaded them for.
 */
export class PinnedSkills {
  private readonly pinned = new Map<string, Set<string>>();

  pin(sessionId: string, name: string): void {
    const set = this.pinned.get(sessionId) ?? new Set<string>();
    set.add(name);
    this.pinned.set(sessionId, set);
  }

  /** Unpins the names given, or every name of the session. */
  unpin(sessionId: string, names: string[] | 'all'): void {
    if (names === 'all') this.pinned.delete(sessionId);
    else for (const n of names) this.pinned.get(sessionId)?.delete(n);
  }

  /** The pinned names, left in place (what a preview of the next turn counts). */
  peek(sessionId: string): string[] {
    return [...(this.pinned.get(sessionId) ?? [])];
  }

  /** The pinned names, cleared by this call (a turn takes them). */
  take(sessionId: string): string[] {
    const names = this.peek(sessionId);
    this.pinned.delete(sessionId);
    return names;
  }
}
