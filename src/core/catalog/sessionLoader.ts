import { ToolError } from '../tools/toolError';
import type { ToolResult } from '../tools/toolResult';
import type { SessionLoader } from './catalogTypes';

/** The part of the skills runtime (`createSkillsRuntime`) the adapter uses; structural, so the catalog does not depend on the runtime's files. */
export interface RuntimeLike {
  invoke(tool: string, input: unknown, call: { sessionId: string }): Promise<ToolResult>;
  readonly sessions: { get(id: string): { active_skills: readonly { id: string; name: string }[] } | undefined };
}

/**
 * A {@link SessionLoader} over the skills runtime: `run` loads through the runtime's `load` tool (adding to the
 * loaded skills), `activeOnly` reads the session's active skills. The runtime should use `catalog.skillSource()`
 * as its skill source so pack skills and overlay revisions resolve.
 */
export function runtimeSessionLoader(runtime: RuntimeLike): SessionLoader {
  return {
    async loadIntoSession(sessionId, skillId) {
      const r = await runtime.invoke('load', { names: [skillId], mode: 'add' }, { sessionId });
      if (!r.ok) throw new ToolError('load_failed', `Loading ${skillId} into the session failed: ${r.error.message} ${r.error.hint}`);
      return r;
    },
    activeSkills(sessionId) {
      return (runtime.sessions.get(sessionId)?.active_skills ?? []).flatMap((a) => [a.id, a.name]);
    },
  };
}
