// The result of a user's script run as a Markdown document: what `run_skill_script` hands the model (exit code,
// stdout and stderr as capped for it, output files), plus the facts a person wants first (duration, sandbox).
// No VS Code import: the text is built from the runtime's result alone.
import { pathToFileURL } from 'node:url';
import type { RunResult } from '../../core/exec/execTypes';
import { describeSandbox, type SandboxStatus } from '../../core/exec/sandboxStatus';
import type { ToolResult } from '../../core/tools/toolResult';

/** The part of the exec engine's RunResult the report shows (the runtime passes it through unchanged). */
type RunFacts = Pick<
  RunResult,
  | 'run_id'
  | 'exit_code'
  | 'signal'
  | 'stdout'
  | 'stderr'
  | 'stdout_truncated'
  | 'stderr_truncated'
  | 'timed_out'
  | 'cancelled'
  | 'duration_ms'
  | 'sandboxed'
  | 'sandbox_reason'
  | 'output_files'
  | 'warnings'
>;

/** What was run, for the report's heading. */
export interface RunAsked {
  skill: string;
  script: string;
  args: readonly string[];
  /** When the run started. */
  started: Date;
  /** The sandbox status the confirmation showed (the probe the run used): its backend words what a sandboxed run had. */
  sandbox?: SandboxStatus;
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenced(text: string, lang = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith('\n') || text === '' ? text : `${text}\n`}${fence}`;
}

/** One line saying how the process ended. */
export function endLine(r: Pick<RunFacts, 'exit_code' | 'signal' | 'timed_out' | 'cancelled' | 'duration_ms'>): string {
  const how = r.cancelled ? 'cancelled (process tree killed)' : r.timed_out ? 'timed out (process tree killed)' : r.exit_code === null ? `ended by signal ${r.signal ?? '?'}` : `exit code ${r.exit_code}`;
  return `${how} after ${Math.round(r.duration_ms)} ms`;
}

/** How the process ended, in a word or two (for a tab title). */
export function shortEnd(r: Pick<RunFacts, 'exit_code' | 'signal' | 'timed_out' | 'cancelled'>): string {
  return r.cancelled ? 'cancelled' : r.timed_out ? 'timed out' : r.exit_code === null ? `signal ${r.signal ?? '?'}` : `exit ${r.exit_code}`;
}

/**
 * A report's title: skill and script first (what tells several open reports apart when their tabs are cut), then
 * how it ended. The script's folders keep a slash that looks like one (U+2215): a title is one file name.
 */
export function reportTitle(skill: string, script: string, end: string): string {
  return `${skill} · ${script.replace(/\//g, '\u2215')} · ${end}`;
}

/** A sandboxed run in its backend's words ("sandboxed with bubblewrap (/usr/bin/bwrap): no network; ..."). */
function sandboxedLine(status: SandboxStatus | undefined): string {
  if (!status?.sandboxed) return 'sandboxed';
  const said = describeSandbox(status);
  return said.charAt(0).toLowerCase() + said.slice(1).replace(/\.$/, '');
}

/**
 * The report of one run. `resolveRef` gives the host file of an output's `run://` ref while the run folder is kept.
 */
export function runReport(asked: RunAsked, outcome: ToolResult, resolveRef: (ref: string) => string | undefined): string {
  const title = `# Run of \`${asked.script}\` (skill ${asked.skill})`;
  const argLine = asked.args.length ? asked.args.map((a) => `\`${a.replace(/`/g, "'")}\``).join(' ') : '(none)';
  const head = [title, '', `- Started: ${asked.started.toISOString()}`, `- Arguments: ${argLine}`];
  if (!outcome.ok) {
    return [...head, `- Result: refused (${outcome.error.code})`, '', '## Why', '', outcome.error.message, '', '## What to do', '', outcome.error.hint, ''].join('\n');
  }
  const r = outcome.result as RunFacts;
  const lines = [
    ...head,
    `- Exit code: ${r.exit_code === null ? `none (signal ${r.signal ?? '?'})` : r.exit_code}`,
    `- Result: ${endLine(r)}`,
    `- Duration: ${Math.round(r.duration_ms)} ms`,
    `- Sandbox: ${r.sandboxed ? sandboxedLine(asked.sandbox) : `not sandboxed: ${r.sandbox_reason ?? 'no reason given'}`}`,
    `- Run id: ${r.run_id}`,
    '',
    `## stdout${r.stdout_truncated ? ' (cut at the cap the model gets)' : ''}`,
    '',
    fenced(r.stdout),
    '',
    `## stderr${r.stderr_truncated ? ' (cut at the cap the model gets)' : ''}`,
    '',
    fenced(r.stderr),
    '',
    '## Output files (out/)',
    '',
  ];
  if (!r.output_files.length) lines.push('None: the script wrote nothing to $OUTPUT_DIR.');
  for (const f of r.output_files) {
    const file = resolveRef(f.ref);
    const link = file ? `[${f.name}](${pathToFileURL(file).href})` : `${f.name} (its run folder was removed since)`;
    lines.push(`- ${link}, ${f.mime_type}, ${f.size_bytes} bytes${file ? ` (${file})` : ''}`);
  }
  if (r.warnings.length) lines.push('', '## Warnings', '', ...r.warnings.map((w) => `- ${w}`));
  lines.push('');
  return lines.join('\n');
}
