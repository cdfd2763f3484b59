// One way to put a gate in front of the script executor (a front end's trust gate, a source's run hook). The gate
// sees every request of both the run and its check, so a front end that asks the user after the check asks only
// about a run the gate lets through; the executor's idle passes through, so `flush()` still waits for it.
import type { ExecRequest, ScriptExecutor } from './runtimeTypes';

/**
 * Decides a request before the executor sees it: returns the request to pass on (the same, or with fields added),
 * or throws the refusal. `attempt` says whether the request is run or only checked, for a gate that reports a
 * refused run (a check tried nothing).
 */
export type ExecGate = (request: ExecRequest, attempt: 'run' | 'check') => ExecRequest;

/** `next` with `gate` in front of its run and its check alike. */
export function guardedExecutor(next: ScriptExecutor, gate: ExecGate): ScriptExecutor {
  return {
    run: async (request) => next.run(gate(request, 'run')),
    check: async (request) => next.check(gate(request, 'check')),
    idle: () => next.idle(),
  };
}
