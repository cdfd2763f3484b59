// The start of an `@skills` turn, shared by the participant and the prompt preview (which runs it on a scratch
// copy of the runtime), so the preview shows what the turn would really compose.
import type { SkillsRuntime } from '../../core/runtime/skillsRuntime';

/** How a turn started: mentions loaded by the runtime, and the problems met. */
export interface TurnStart {
  autoLoaded: string[];
  errors: string[];
}

/**
 * Begins the turn (turn and once skills cleared, the request recorded, `$name`/`#name` mentions loaded), then loads
 * again the skills the user loaded from the Skills view since the last turn (`pinned`) that the turn cleared.
 */
export async function beginSkillsTurn(runtime: Pick<SkillsRuntime, 'beginTurn' | 'invoke'>, sessionId: string, request: string, pinned: readonly string[]): Promise<TurnStart> {
  const turn = await runtime.beginTurn(sessionId, request);
  const errors = [...turn.errors];
  const keep = pinned.filter((n) => !turn.session.active_skills.some((a) => a.name === n));
  if (keep.length) {
    const r = await runtime.invoke('load', { names: keep, mode: 'add' }, { sessionId });
    if (!r.ok) errors.push(`${r.error.message} ${r.error.hint}`);
  }
  return { autoLoaded: turn.autoLoaded, errors };
}
