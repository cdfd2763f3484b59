/**
 * Host variables a script may see, by exact name. Everything else of the host environment is dropped
 * (tokens, cloud credentials, proxies, SSH agents...), then the runtime's own variables and the call's
 * `env` are added. HOME is not passed: it points to a per-skill folder kept in the state dir, so tools
 * that cache under ~ (pip, npm) keep their caches between runs without seeing the user's home.
 */
export const DEFAULT_ENV_ALLOWLIST: readonly string[] = ['PATH', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'COLORTERM', 'NO_COLOR'];

/** Host variables passed by prefix (locale categories). */
export const DEFAULT_ENV_PREFIXES: readonly string[] = ['LC_'];

/**
 * The host variables a script may see: the allowlisted ones and those with an allowed prefix. A runner
 * takes them once, when it is created (as it takes PATH for looking programs up): reading the whole
 * process environment costs more than the rest of a run's preparation.
 */
export function allowedHostEnv(host: NodeJS.ProcessEnv, extraAllow: readonly string[]): Record<string, string> {
  const allow = new Set([...DEFAULT_ENV_ALLOWLIST, ...extraAllow]);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (allow.has(key) || DEFAULT_ENV_PREFIXES.some((p) => key.startsWith(p))) env[key] = value;
  }
  if (!env.PATH) env.PATH = '/usr/local/bin:/usr/bin:/bin';
  return env;
}

/** Builds the child's environment: the allowed host variables, then the call's `extra`, then `runtime` (which wins). */
export function buildEnv(
  allowedHost: Readonly<Record<string, string>>,
  runtime: Record<string, string>,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  // The workspace variables describe where things are; a call cannot point them elsewhere.
  return { ...allowedHost, ...extra, ...runtime };
}
