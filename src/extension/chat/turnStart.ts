// The start of an `@skills` turn, shared by the participant and the prompt preview (which runs it on a scratch
// copy of the runtime), so the preview shows what the turn would really compose.
import type { SkillTools } from '../../core/runtime/skillTools';

/** How a turn started: mentions loaded by the runtime, and the problems met. */
export interface TurnStart {
  autoLoaded: string[];
  errors: string[];
}

/**
 * Begins the turn (turn and once skills cleared, the request recorded, `$name`/`#name` mentions loaded), then loads
 * again the skills the user loaded from the Skills view since the last turn (`pinned`) that the turn cleared.
 */
export async function beginSkillsTurn(runtime: Pick<SkillTools, 'beginTurn' | 'invoke'>, sessionId: string, request: string, pinned: readonly string[]): Promise<TurnStart> {
  const turn = await runtime.beginTurn(sessionId, request);
  const errors = [...turn.errors];
  const keep = pinned.filter((n) => !turn.session.active_skills.some((a) => a.name === n));
  if (keep.length) {
    const r = await runtime.invoke('load', { names: keep, mode: 'add' }, { sessionId });
    if (!r.ok) errors.push(`${r.error.message} ${r.error.hint}`);
  }
  return { autoLoaded: turn.autoLoaded, errors };
}

/** A turn begun on a scratch copy of the runtime: nothing reaches the window's sessions, listeners or audit log. */
export interface ScratchTurn {
  scratch: SkillTools;
  sessionId: string;
  start: TurnStart;
}

/**
 * Begins a turn on a scratch copy of the runtime, holding a copy of session `copyOf` when given (else session
 * `sessionId` is new): what Preview Prompt shows and what the trigger judge sends are composed by the same calls
 * as a real `@skills` turn (this turn start, then the runtime's compose), never a copy of them.
 */
export async function beginScratchTurn(runtime: SkillTools, sessionId: string, request: string, pinned: readonly string[], copyOf?: string): Promise<ScratchTurn> {
  const scratch = runtime.scratch(copyOf);
  await scratch.openSession(sessionId);
  const start = await beginSkillsTurn(scratch, sessionId, request, pinned);
  return { scratch, sessionId, start };
}
