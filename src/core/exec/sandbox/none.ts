import type { SandboxBackend } from './backend';

/**
 * No isolation: the runner starts the script itself (runLaunch.ts) in a fresh run folder with a scrubbed
 * environment. Used when the policy is `off`, or `auto` finds no working backend.
 */
export const none: SandboxBackend = {
  id: 'none',
  // Never probed (not in the registry's list): it is what runs when no backend works, on every platform.
  platforms: [],
  guarantees:
    'the script runs with your user\'s rights: it can read your files and use the network. It starts in a fresh run folder with a scrubbed ' +
    'environment, and the timeout kills its process tree',
  probe: () => Promise.resolve({ available: true, backend: 'none' }),
};
