import { printableLines } from '../terminalText';
import { createAgentSkills } from '../../core/agentSkills';
import type { SandboxPolicy } from '../../core/exec';
import { describeSandbox } from '../../core/exec/sandboxStatus';
import { runtimeTool, type ToolCallContext } from '../../core/toolTable';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';
import { cliSources } from '../cliSources';
import { cliStateDir } from './session';

interface RunFlags {
  roots: string[];
  plugins: string[];
  noDefaults: boolean;
  stateDir?: string;
  timeout?: number;
  sandbox?: SandboxPolicy;
  json: boolean;
}

/** Options come before `<skill>`; everything after `<script>` goes to the script unchanged. */
function parseRunArgs(args: string[]): { flags: RunFlags; skill: string; script: string; rest: string[] } {
  const flags: RunFlags = { roots: [], plugins: [], noDefaults: false, json: false };
  let i = 0;
  const value = (name: string): string => {
    const v = args[++i];
    if (v === undefined) throw new UsageError(`${name} needs a value.`);
    return v;
  };
  for (; i < args.length && args[i].startsWith('--'); i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '--root') flags.roots.push(value(a));
    else if (a === '--plugin') flags.plugins.push(value(a));
    else if (a === '--no-defaults') flags.noDefaults = true;
    else if (a === '--state-dir') flags.stateDir = value(a);
    else if (a === '--json') flags.json = true;
    else if (a === '--timeout') {
      flags.timeout = Number(value(a));
      if (!(flags.timeout > 0)) throw new UsageError('--timeout needs a number of seconds above 0.');
    } else if (a === '--sandbox') {
      const v = value(a);
      if (v !== 'auto' && v !== 'off' && v !== 'required') throw new UsageError('--sandbox is auto, off or required.');
      flags.sandbox = v;
    } else throw new UsageError(`unknown option ${a}.`);
  }
  const [skill, script, ...rest] = args.slice(i);
  if (!skill || !script) throw new UsageError('give a skill name and a script path relative to the skill, e.g. run pdf scripts/extract.py in.pdf.');
  return { flags, skill, script, rest };
}

/**
 * `agent-skills run <skill> <script> [args...]`: loads the skill and runs one of its scripts through the
 * same runtime the chat uses (workspace, interpreter mapping, timeout, audit log), prints the script's
 * stdout and stderr, and exits with its exit code (124 on timeout).
 */
export const runCommand: CliCommand = {
  name: 'run',
  usage: 'run [--root <dir>]... [--plugin <dir>]... [--no-defaults] [--state-dir <dir>] [--timeout <s>] [--sandbox auto|off|required] [--json] <skill> <script> [args...]',
  summary: "Run a skill's script in a fresh workspace, as the run_script tool does; exits with the script's exit code.",
  help: {
    options: [['--root <dir>', 'Another folder of skills (repeatable).'], ['--plugin <dir>', 'An Agent Plugin folder (repeatable).'], ['--no-defaults', 'Skip the default roots (current folder and home skill folders).'], ['--state-dir <dir>', 'The runtime state folder.'], ['--timeout <s>', 'Stop the script after this many seconds (exit 124).'], ['--sandbox auto|off|required', 'Run in the sandbox when there is one (auto), never, or refuse to run without one.'], ['--json', 'Print the run result as JSON.'], ['<skill> <script> [args...]', 'Arguments after the script go to it unchanged (so a --help there is the script\'s).']],
    exitCodes: [['N', 'the script\'s own exit code (0 when it succeeded)'], [1, 'also when the run failed before the script started (unknown skill or script, sandbox required but missing)'], [124, 'the script timed out']], passesArgs: true,
  },
  async run(args) {
    const { flags, skill, script, rest } = parseRunArgs(args);
    const { roots } = cliSources('run', { roots: flags.roots, plugins: flags.plugins, noDefaults: flags.noDefaults, stateDir: cliStateDir(flags.stateDir) });
    const core = createAgentSkills({ roots, stateDir: cliStateDir(flags.stateDir), runner: { workspaceDir: process.cwd(), ...(flags.sandbox ? { sandbox: flags.sandbox } : {}) } });
    await core.refresh();
    const rt = core.tools();
    // Said before the run, from the probe the run decides with: `auto` without a working sandbox runs the
    // script with the user's rights, which must not go unnoticed (also with --json, on stderr).
    const sandbox = await core.sandboxStatus();
    if ((!sandbox.sandboxed && sandbox.policy === 'auto') || sandbox.missing?.length) process.stderr.write(`agent-skills run: ${describeSandbox(sandbox)}\n`);
    const sessionId = `cli-run-${process.pid}-${Date.now()}`;
    await rt.openSession(sessionId);
    let cleanupSignals = () => {};
    try {
      // The same tools, through the same descriptors, as a model's calls.
      // SIGINT or SIGTERM of this process cancels the run: its processes, setsid ones included, are killed
      // before the command exits (issue 22.6).
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      cleanupSignals = () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      };
      const ctx: ToolCallContext = { sessionId, surface: 'cli', signal: stop.signal, services: { runtime: async () => rt } };
      const loaded = await runtimeTool('load').invoke(ctx, { names: [skill] });
      if (!loaded.ok) return fail(loaded.error);
      const r = await runtimeTool('run_script').invoke(ctx, { skill, script, args: rest, ...(flags.timeout ? { timeout_seconds: flags.timeout } : {}) });
      if (!r.ok) return fail(r.error);
      const result = r.result as { exit_code: number | null; timed_out: boolean; stdout: string; stderr: string; stdout_truncated?: boolean; sandboxed?: boolean; sandbox_reason?: string };
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else {
        process.stdout.write(result.stdout);
        process.stderr.write(result.stderr);
        if (result.stdout_truncated) process.stderr.write('agent-skills run: stdout was truncated at the runner\'s cap.\n');
        if (result.timed_out) process.stderr.write(`agent-skills run: the script timed out and was killed.\n`);
      }
      if ((result as { cancelled?: boolean }).cancelled) process.stderr.write('agent-skills run: stopped by a signal; the script and what it started were killed.\n');
      return result.timed_out ? 124 : (result.exit_code ?? 1);
    } finally {
      cleanupSignals();
      await rt.sessions.delete(sessionId);
      await rt.flush();
    }
  },
};

function fail(e: { message: string; hint: string }): number {
  process.stderr.write(`agent-skills run: ${printableLines(e.message)}\n  ${printableLines(e.hint)}\n`);
  return 1;
}
