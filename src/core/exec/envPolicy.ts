import { ScriptRunError } from './scriptRunError';

/**
 * Variables a call's `env` may not set, because they make a program load or run code that is not the
 * script: the launcher and bubblewrap (which run outside the sandbox) and the interpreter itself, before the
 * script's first line. With command lists configured they would also let an allowed program run anything.
 * The list is by what the variable does, not by how likely it is to be used:
 * - the dynamic loaders (`LD_*` glibc/musl, `DYLD_*` macOS) and glibc's `GCONV_PATH` (loads iconv modules)
 *   and `GLIBC_TUNABLES` (parsed by the loader of every program);
 * - start-up hooks of interpreters: options and module paths that load a file before the script
 *   (`NODE_OPTIONS`, `PYTHONPATH`, `PYTHONSTARTUP`, `PERL5OPT`, `RUBYOPT`, `JAVA_TOOL_OPTIONS`...);
 * - shell start-up files and options (`BASH_ENV`, `ENV`, `SHELLOPTS`, `BASHOPTS`, `PS4` with xtrace,
 *   exported functions `BASH_FUNC_*`).
 * A script that needs one of these can set it itself, inside the run, where it affects only the run.
 */
const REFUSED_EXACT: Readonly<Record<string, string>> = {
  GCONV_PATH: 'glibc loads character-conversion modules (code) from that folder',
  GLIBC_TUNABLES: 'the dynamic loader of every program parses it (CVE-2023-4911)',
  NODE_OPTIONS: 'node would take --require/--import from it and run that file before the script',
  NODE_PATH: 'node would resolve the script\'s modules from that folder first',
  PYTHONPATH: 'python would import modules (a sitecustomize.py) from that folder before the script',
  PYTHONHOME: 'python would load its standard library, and so any code, from that folder',
  PYTHONSTARTUP: 'python runs that file at start-up',
  PYTHONUSERBASE: 'python would import usercustomize from that folder',
  PYTHONWARNINGS: 'python imports the module named in a warning filter',
  PYTHONBREAKPOINT: 'python imports and calls the object it names',
  BASH_ENV: 'bash runs that file before any non-interactive script',
  ENV: 'sh runs that file at start-up',
  SHELLOPTS: 'bash takes options from it (xtrace with PS4 runs commands)',
  BASHOPTS: 'bash takes options from it',
  PS4: 'bash expands it, commands included, for every traced line',
  PROMPT_COMMAND: 'bash runs it',
  PERL5OPT: 'perl takes options from it (-M loads a module)',
  PERL5LIB: 'perl would load modules from that folder first',
  PERLLIB: 'perl would load modules from that folder first',
  PERL5DB: 'perl runs it as the debugger',
  RUBYOPT: 'ruby takes options from it (-r loads a file)',
  RUBYLIB: 'ruby would load files from that folder first',
  JAVA_TOOL_OPTIONS: 'the JVM takes options from it (-javaagent runs code)',
  _JAVA_OPTIONS: 'the JVM takes options from it (-javaagent runs code)',
  JDK_JAVA_OPTIONS: 'the java launcher takes options from it (-javaagent runs code)',
};

const REFUSED_PREFIXES: readonly (readonly [string, string])[] = [
  ['LD_', 'the dynamic loader reads it (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT load libraries into every program of the run, the launcher included)'],
  ['DYLD_', 'the macOS dynamic loader reads it (DYLD_INSERT_LIBRARIES loads libraries into every program of the run)'],
  ['BASH_FUNC_', 'bash imports it as a function that can replace any command'],
];

/** Why `name` may not be set by a call, or undefined when it may. */
export function refusedEnvReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (Object.prototype.hasOwnProperty.call(REFUSED_EXACT, upper)) return REFUSED_EXACT[upper];
  return REFUSED_PREFIXES.find(([p]) => upper.startsWith(p))?.[1];
}

/** Every name refused exactly and every refused prefix (for docs and tests). */
export const REFUSED_ENV = { names: Object.keys(REFUSED_EXACT), prefixes: REFUSED_PREFIXES.map(([p]) => p) };

/**
 * Refuses a call's `env` that sets loader or interpreter-injection variables: one line per variable, each
 * with its reason, so the model can drop exactly those.
 */
export function checkCallEnv(env: Readonly<Record<string, string>> | undefined): void {
  if (!env) return;
  const lines: string[] = [];
  for (const name of Object.keys(env)) {
    const why = refusedEnvReason(name);
    if (why) lines.push(`env "${name}" is refused: ${why}. Remove it from env (a script that needs it can set it itself).`);
  }
  if (lines.length) throw new ScriptRunError('env_refused', lines.join('\n'));
}
