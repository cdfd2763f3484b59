/**
 * Host variables a script may see, by exact name. Everything else of the host environment is dropped
 * (tokens, cloud credentials, proxies, SSH agents...), then the runtime's own variables and the call's
 * `env` are added. HOME is not passed: it points to a per-skill folder kept in the state dir, so tools
 * that cache under ~ (pip, npm) keep their caches between runs without seeing the user's home.
 */
export const DEFAULT_ENV_ALLOWLIST: readonly string[] = ['PATH', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'COLORTERM', 'NO_COLOR'];

/** Host variables passed by prefix (locale categories). */
export const DEFAULT_ENV_PREFIXES: readonly string[] = ['LC_'];

/** Builds the child's environment: allowlisted host variables, then the call's `extra`, then `runtime` (which wins). */
export function buildEnv(
  host: NodeJS.ProcessEnv,
  extraAllow: readonly string[],
  runtime: Record<string, string>,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  const allow = new Set([...DEFAULT_ENV_ALLOWLIST, ...extraAllow]);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (allow.has(key) || DEFAULT_ENV_PREFIXES.some((p) => key.startsWith(p))) env[key] = value;
  }
  if (!env.PATH) env.PATH = '/usr/local/bin:/usr/bin:/bin';
  if (extra) Object.assign(env, extra);
  // The workspace variables describe where things are; a call cannot point them elsewhere.
  Object.assign(env, runtime);
  return env;
}
