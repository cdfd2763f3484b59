import type { CliCommand } from './cliCommand';

/** The exit code of a usage error, for every command. */
export const USAGE_EXIT: readonly [number | string, string] = [2, 'usage error: an unknown option, a missing argument or a bad value (the message says which)'];

/** True when `args` ask for the command's help (`--help` or `-h` among its own options, before any `--`). */
export function asksForHelp(command: CliCommand, args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
    if (command.help.passesArgs && !a.startsWith('-')) return false;
  }
  return false;
}

/** `agent-skills <command> --help`: usage, summary, options and exit codes. */
export function commandHelpText(command: CliCommand): string {
  const lines = [`usage: agent-skills ${command.usage}`, '', wrap(command.summary, 0), ''];
  const options: (readonly [string, string])[] = [...command.help.options, ['-h, --help', 'Print this help and exit 0.']];
  lines.push('Options:');
  const width = Math.min(32, Math.max(...options.map(([o]) => o.length)));
  for (const [o, text] of options) {
    if (o.length > width) lines.push(`  ${o}`, wrap(text, width + 4));
    else lines.push(`  ${o.padEnd(width)}  ${wrap(text, width + 4).trimStart()}`);
  }
  lines.push('', 'Exit codes:');
  const codes = [...command.help.exitCodes, USAGE_EXIT];
  const codeWidth = Math.max(...codes.map(([c]) => String(c).length));
  for (const [code, text] of codes) lines.push(`  ${String(code).padEnd(codeWidth)}  ${wrap(text, codeWidth + 4).trimStart()}`);
  return `${lines.join('\n')}\n`;
}

/** `agent-skills --help`: every command with its summary. */
export function mainHelpText(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: agent-skills <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${wrap(firstSentence(c.summary), width + 4).trimStart()}`),
    '',
    "Run 'agent-skills <command> --help' for a command's options and exit codes.",
    'Exit codes: 0 success, 1 invalid skills or a failed operation, 2 usage error.',
    '',
  ].join('\n');
}

function firstSentence(s: string): string {
  const m = /^.*?[.!?](?=\s|$)/.exec(s);
  return m ? m[0] : s;
}

/** `text` wrapped at 100 columns, continuation lines indented by `indent` spaces. */
function wrap(text: string, indent: number): string {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > 100) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  out.push(line);
  return out.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}
