import type { ToolInvocation } from './skillsRuntime';

// Diagnostics for hosts and the audit log, not for the model.
const RUN_HOST_ONLY = new Set(['phases', 'argv']);
// Always kept, even when false or null: the model needs them to judge the run.
const RUN_ALWAYS = new Set(['exit_code', 'timed_out', 'sandboxed', 'stdout', 'stderr']);

/**
 * The text a host puts in the tool result message: the structured result as compact JSON, with a run's
 * host-only fields (phases, argv) and its false/null/empty flags dropped; an error as `{ error }` with
 * its hint. The full structured result stays available to the host.
 */
export function toolResultText(inv: ToolInvocation): string {
  if (!inv.ok) return JSON.stringify({ error: inv.error });
  if (inv.tool !== 'run_script' || typeof inv.result !== 'object' || inv.result === null) return JSON.stringify(inv.result);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(inv.result)) {
    if (RUN_HOST_ONLY.has(k)) continue;
    if (!RUN_ALWAYS.has(k) && (v === false || v === null || (Array.isArray(v) && v.length === 0))) continue;
    out[k] = v;
  }
  return JSON.stringify(out);
}
