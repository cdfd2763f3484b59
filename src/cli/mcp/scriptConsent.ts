// Asking the user before `run_skill_script` runs anything, over MCP elicitation. A client that declared the
// `elicitation` capability (form mode) is asked what runs and what it may do (sandboxed or not, network, what it
// can write), and the script runs only on an explicit yes. The eras ask differently (the channel, built where the
// request arrives): a 2025-11-25 session sends `elicitation/create` to the client and waits (mcpSession.ts); a
// 2026-07-28 request, which has no session, answers with an `input_required` result and the client retries the call
// with the answer (multi round-trip requests, basic/patterns/mrtr), the context kept in a signed `requestState`
// (requestState.ts). `--confirm-scripts` says whom this applies to; this file decides, words and reads the answer.
import type { SandboxStatus } from '../../core/exec/sandboxStatus';
import { describeSandbox } from '../../core/exec/sandboxStatus';
import { pluginRunReach } from '../../core/plugins/pluginRuns';
import { invalidParams } from './requestError';
import { mcpTools, type McpToolServices } from './toolAdapter';
import { isJsonObject } from './jsonObject';

/** `--confirm-scripts`: ask clients that can be asked (default), refuse runs to those that cannot, or never ask. */
export const CONFIRM_SCRIPTS = ['when-supported', 'always', 'never'] as const;
export type ConfirmScripts = (typeof CONFIRM_SCRIPTS)[number];

/** The key of the one input request a confirmation makes (2026-07-28 `inputRequests`). */
export const CONSENT_KEY = 'run_script_consent';

/** The question put to the user: the message and the one-field form. */
export interface ConsentQuestion {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] };
}

/** What the channel came back with: run, do not run (the tool result's text says why), or (2026-07-28) the result asking. */
export type ConsentOutcome = { run: true } | { run: false; text: string } | { inputRequired: Record<string, unknown> };

/** How a request's client is asked (one per era, built where the request arrives). */
export interface ConsentChannel {
  /** The client declared form elicitation (at initialize on 2025-11-25, on this request on 2026-07-28). */
  canAsk(): Promise<boolean>;
  /** Asks; `binding` names the call (tool, arguments, session) a 2026-07-28 answer must come back with. */
  ask(q: ConsentQuestion, binding: string): Promise<ConsentOutcome>;
}

/**
 * True when a client's capabilities allow a form elicitation: `elicitation.form` declared, or an empty `elicitation`
 * object (form only, as both revisions' text says for backwards compatibility).
 */
export function clientCanBeAsked(capabilities: unknown): boolean {
  const e = isJsonObject(capabilities) ? capabilities.elicitation : undefined;
  if (!isJsonObject(e)) return false;
  return isJsonObject(e.form) || (!('form' in e) && !('url' in e));
}

const quoted = (v: unknown) => JSON.stringify(String(v)).slice(0, 300);

/** The question for a run of `input` (already checked against the tool's schema) in `skill`, with the runner's sandbox truth. */
export function consentQuestion(input: Record<string, unknown>, skill: string, sandbox: SandboxStatus | undefined, plugin?: { root: string; dataDir: string }): ConsentQuestion {
  const what = typeof input.script === 'string' ? `script ${quoted(input.script)}` : `command ${quoted(input.command)}`;
  const args = Array.isArray(input.args) && input.args.length ? input.args.map(quoted).join(' ') : '(none)';
  const env = isJsonObject(input.env) ? Object.keys(input.env) : [];
  const inputs = Array.isArray(input.inputs) ? input.inputs.map((x) => quoted(isJsonObject(x) ? x.from : x)) : [];
  const sandboxed = sandbox?.sandboxed === true;
  const uid = process.getuid?.();
  const lines = [
    `Run the ${what} of skill ${quoted(skill)}?`,
    `Arguments: ${args}`,
    ...(env.length ? [`Environment variables: ${env.slice(0, 20).map(quoted).join(', ')}`] : []),
    ...(inputs.length ? [`Files staged in: ${inputs.slice(0, 20).join(', ')}`] : []),
    `Sandboxed: ${sandboxed ? 'yes' : 'NO'}. ${sandbox ? describeSandbox(sandbox) : 'The runner did not report its sandbox.'}`,
    `Network: ${sandboxed ? 'none (the sandbox has no network)' : 'yes: it can reach whatever this server can'}.`,
    `Can write: ${sandboxed ? `only its own run folder (out/, work/, inputs/) and the skill's own HOME${plugin ? ", and its plugin's data folder (below)" : ''}; the skill is a read-only copy` : `whatever the server's user${uid === undefined ? '' : ` (uid ${uid})`} can write`}.`,
    ...(plugin ? [`Plugin folders: ${pluginRunReach(plugin)}`] : []),
    'Tick "Run" and accept to run it; decline and nothing runs.',
  ];
  return {
    message: lines.join('\n'),
    requestedSchema: { type: 'object', properties: { run: { type: 'boolean', title: 'Run', description: 'Run this script now, as described.', default: false } }, required: ['run'] },
  };
}

/**
 * Reads a client's answer to the question (an ElicitResult, untrusted): run only on `accept` with `run: true`. An
 * answer that is not an elicitation result, or whose `run` is not true or false, is a protocol error (-32602) naming
 * what was wrong; nothing runs. Fields the question did not ask for are ignored.
 */
export function readConsentAnswer(answer: unknown): ConsentOutcome {
  const refuse = (why: string) => invalidParams(`The answer to the script-run confirmation is not usable: ${why}. Nothing was run; call the tool again to be asked again.`);
  if (!isJsonObject(answer)) throw refuse(`expected an elicitation result object, got ${Array.isArray(answer) ? 'an array' : answer === null ? 'null' : typeof answer}`);
  const action = answer.action;
  if (action === 'decline') return { run: false, text: 'Not run: the user declined to run this script. Do not retry it unless the user asks; continue without it or ask the user what to do.' };
  if (action === 'cancel') return { run: false, text: 'Not run: the user dismissed the confirmation without deciding. Ask the user before trying again.' };
  if (action !== 'accept') throw refuse(`'action' must be 'accept', 'decline' or 'cancel', not ${JSON.stringify(action)?.slice(0, 60) ?? 'undefined'}`);
  const content = answer.content;
  if (!isJsonObject(content)) throw refuse(`an accepted answer needs 'content' with 'run' (true or false)`);
  if (typeof content.run !== 'boolean') throw refuse(`'content.run' must be true or false, not ${JSON.stringify(content.run)?.slice(0, 60) ?? 'undefined'}`);
  if (!content.run) return { run: false, text: 'Not run: the user answered without ticking "Run". Ask the user before trying again.' };
  return { run: true };
}

/** What `--confirm-scripts` makes of a run when the client cannot be asked: run as before, or refuse (the text says why). */
export function unaskedRun(mode: ConfirmScripts): ConsentOutcome {
  if (mode !== 'always') return { run: true };
  return {
    run: false,
    text: 'Not run: this server asks the user before every script run (--confirm-scripts always), and this client did not declare the MCP elicitation capability, so no one can be asked. Use a client that supports elicitation, or ask the user to restart the server with --confirm-scripts when-supported.',
  };
}

/** True when this server may ask before a run: it offers `run_skill_script` (the tools follow from --allow-scripts) and `--confirm-scripts` is not `never`. */
export function asksBeforeRuns(backend: Pick<McpToolServices, 'surface' | 'runtime' | 'readOnly' | 'tools'> & { confirmScripts: ConfirmScripts }): boolean {
  return backend.confirmScripts !== 'never' && mcpTools(backend).some((t) => t.descriptor.id === 'run_script');
}

/** What {@link confirmRun} needs of a call. */
export interface RunToConfirm {
  mode: ConfirmScripts;
  sandbox: SandboxStatus | undefined;
  channel: ConsentChannel | undefined;
  input: Record<string, unknown>;
  /** The skill that would run it; undefined when the runtime will refuse the call anyway (none loaded, or not this one). */
  skill: string | undefined;
  /** A plugin skill's plugin folders, as the runtime's check found them. */
  plugin?: { root: string; dataDir: string };
  binding: string;
}

/**
 * Whether a run goes ahead: `--confirm-scripts never`, a run the runtime refuses anyway (`skill` undefined: the
 * runner's check before staging refused it, a required sandbox missing included) and, by default, a client that
 * cannot be asked go ahead unasked (the tool's own checks follow); otherwise the client is asked through its era's channel.
 */
export async function confirmRun(r: RunToConfirm): Promise<ConsentOutcome> {
  if (r.mode === 'never' || r.skill === undefined) return { run: true };
  if (!r.channel || !(await r.channel.canAsk())) return unaskedRun(r.mode);
  return r.channel.ask(consentQuestion(r.input, r.skill, r.sandbox, r.plugin), r.binding);
}
