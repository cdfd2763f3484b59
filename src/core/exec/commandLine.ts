import * as path from 'node:path';
import { ScriptRunError } from './scriptRunError';

/** Allow and deny lists for `command` runs (seed 004). Names compare by the program's base name. */
export interface CommandPolicy {
  allowed?: readonly string[];
  denied?: readonly string[];
}

/** True when either list is set: then commands run as one argv, with no shell. */
export function policyActive(policy: CommandPolicy): boolean {
  return (policy.allowed?.length ?? 0) > 0 || (policy.denied?.length ?? 0) > 0;
}

const SHELL_HINT = 'Command lists are on, so no shell runs: give one program with its arguments, run a skill script instead, and collect files with `outputs`.';

/**
 * Splits a command line into argv the way a shell would for plain words and quotes, and refuses
 * every piece of shell syntax: pipes, redirections, separators, background `&`, substitutions
 * (`$`, backquotes), globs, subshells, braces, comments, heredocs and newlines.
 */
export function splitCommandLine(line: string): string[] {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  const refuse = (what: string): never => {
    throw new ScriptRunError('shell_syntax', `command "${line}" uses shell syntax (${what}). ${SHELL_HINT}`);
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) refuse('an unterminated single quote');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const c = line[j];
        if (c === '$' || c === '`') refuse(`substitution "${c}" inside double quotes`);
        if (c === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1])) j++;
        word += line[j];
      }
      if (j >= line.length) refuse('an unterminated double quote');
      inWord = true;
      i = j;
    } else if (ch === '\\') {
      if (i + 1 >= line.length || line[i + 1] === '\n') refuse('a line continuation');
      word += line[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else if ('|&;<>()`$\n\r'.includes(ch)) {
      refuse(`"${ch === '\n' ? '\\n' : ch}"`);
    } else if ('*?[]{}~'.includes(ch) || (ch === '#' && !inWord)) {
      refuse(`"${ch}" (globs, braces, ~ and comments need a shell)`);
    } else if (ch === '=' && !inWord && argv.length === 0) {
      refuse('a variable assignment; pass variables with `env`');
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) argv.push(word);
  if (argv.length === 0) throw new ScriptRunError('invalid_request', 'command is empty; give a program and its arguments.');
  if (argv[0].includes('=')) refuse('a variable assignment; pass variables with `env`');
  return argv;
}

/**
 * Checks argv[0] against the lists; throws a message that names the lists' contents. The denied list
 * matches the base name (so `/usr/bin/curl` is `curl`); the allowed list matches a bare name looked up
 * on PATH, or an exact path, so `./python3` does not pass for `python3`.
 */
export function checkCommandPolicy(argv: string[], policy: CommandPolicy): void {
  const name = path.basename(argv[0]);
  if (policy.denied?.some((d) => d === name || d === argv[0])) {
    throw new ScriptRunError('command_denied', `command "${name}" is on the denied list (${policy.denied.join(', ')}); use another program or a skill script.`);
  }
  if (policy.allowed && policy.allowed.length > 0 && !policy.allowed.some((a) => a === argv[0] || (a === name && !argv[0].includes('/')))) {
    throw new ScriptRunError('command_not_allowed', `command "${name}" is not on the allowed list (${policy.allowed.join(', ')}); use one of those or a skill script.`);
  }
}
