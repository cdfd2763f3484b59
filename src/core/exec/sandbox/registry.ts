import type { ProbeEnv, SandboxBackend, SandboxProbe, SandboxStatus } from './backend';
import { bubblewrap } from './bubblewrap';
import { none } from './none';
import { seatbelt } from './seatbelt';
import type { SandboxPolicy } from '../execTypes';

/** Every backend that isolates, tried in this order on its platforms. A new backend is one file plus one line here. */
export const SANDBOX_BACKENDS: readonly SandboxBackend[] = [bubblewrap, seatbelt];

/** The backend with this id ("none" included). */
export function backendById(id: string | undefined): SandboxBackend {
  return SANDBOX_BACKENDS.find((b) => b.id === id) ?? none;
}

/**
 * The first working backend for `platform`, else why none works (the first one's reason, or that the
 * platform has none). Each backend's probe remembers its own answer.
 */
export async function probeBackends(env: ProbeEnv, platform: NodeJS.Platform = process.platform): Promise<SandboxProbe> {
  let first: SandboxProbe | undefined;
  for (const b of SANDBOX_BACKENDS.filter((x) => x.platforms.includes(platform))) {
    const p = await b.probe(env);
    if (p.available) return p;
    first ??= p;
  }
  return first ?? { available: false, reason: `there is no sandbox backend for ${platform}` };
}

/** The status of a policy given a probe: what the confirmation shows and what the run does. */
export function statusOf(policy: SandboxPolicy, probe: SandboxProbe | undefined): SandboxStatus {
  if (policy === 'off') return { policy, sandboxed: false, refused: false, reason: 'the sandbox is off (setting agentSkills.scripts.sandbox or --sandbox off)' };
  if (probe?.available && probe.backend !== none.id) return { policy, sandboxed: true, refused: false, mechanism: probe.backend, program: probe.program, ...(probe.missing?.length ? { missing: probe.missing } : {}) };
  const reason = probe?.reason ?? 'no sandbox was found';
  return { policy, sandboxed: false, refused: policy === 'required', reason, ...(probe?.backend ? { tried: probe.backend } : {}) };
}

/** One sentence for a confirmation or a terminal: sandboxed or not (and by what), and why. */
export function describeSandbox(s: SandboxStatus): string {
  if (s.sandboxed) return `Sandboxed with ${s.mechanism} (${s.program}): ${backendById(s.mechanism).guarantees}.${s.missing?.length ? ` Missing here: ${s.missing.join('; ')}.` : ''}`;
  if (s.refused) return `Not run: the sandbox is required but unavailable (${s.reason}). ${backendById(s.tried).whenUnavailable ?? 'Set agentSkills.scripts.sandbox to "auto" to run it without one.'}`;
  if (s.policy === 'off') return `Not sandboxed (${s.reason}): ${none.guarantees}.`;
  return `Not sandboxed, because ${s.reason}: ${none.guarantees}.`;
}
