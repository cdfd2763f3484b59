// What a run's sandbox status is and how it is said: the backends own the wording (sandbox/registry.ts).
export type { SandboxStatus } from './sandbox/backend';
export { describeSandbox } from './sandbox/registry';
