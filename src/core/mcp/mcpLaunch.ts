// How a configured MCP server is started: the environment a stdio server gets, and the words that tell the user
// exactly what will run before a plugin's server is started (command, arguments, folder, environment names).
import { createHash } from 'node:crypto';
import { allowedHostEnv } from '../exec/env';
import type { McpServerConfig } from './mcpServerConfig';

/**
 * A server to connect to. `hostEnv: 'scrubbed'` (a plugin's server): the stdio child gets only the host variables
 * scripts get (PATH, locale, terminal: src/core/exec/env.ts) plus what its configuration declares; otherwise (a server
 * the user configured by hand) it inherits this process's environment, as the user's own command would.
 */
export type McpLaunch = McpServerConfig & { hostEnv?: 'inherit' | 'scrubbed' };

type StdioLaunch = Extract<McpLaunch, { command: string }>;

/** The environment a stdio server starts with. */
export function launchEnv(c: StdioLaunch, host: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const base = c.hostEnv === 'scrubbed' ? allowedHostEnv(host, []) : definedOnly(host);
  return { ...base, ...c.env };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** What will run, for a confirmation: one line per fact, and a fingerprint that changes when any of them does. */
export function describeLaunch(c: McpLaunch, host: NodeJS.ProcessEnv = process.env): { summary: string; detail: string; fingerprint: string } {
  if ('url' in c) {
    const headers = Object.keys(c.headers ?? {});
    const detail = [`URL: ${c.url}`, `Headers: ${headers.length ? headers.join(', ') : 'none'}`].join('\n');
    return { summary: `Connect to MCP server '${c.name}' at ${c.url}?`, detail, fingerprint: fingerprintOf({ url: c.url, headers: c.headers ?? {} }) };
  }
  const env = launchEnv(c, host);
  const declared = Object.keys(c.env ?? {}).sort();
  const inherited = Object.keys(env).filter((k) => !declared.includes(k)).sort();
  const detail = [
    `Command: ${c.command}`,
    `Arguments: ${c.args.length ? c.args.map((a) => JSON.stringify(a)).join(' ') : 'none'}`,
    `Folder: ${c.cwd ?? '(the current folder)'}`,
    `Environment it declares: ${declared.length ? declared.join(', ') : 'none'}`,
    `From your environment: ${c.hostEnv === 'scrubbed' ? inherited.join(', ') || 'nothing' : 'everything (it inherits this process\'s environment)'}`,
    'It runs as you, outside any sandbox, until the window closes or the setting no longer names it.',
  ].join('\n');
  return { summary: `Start MCP server '${c.name}'? It runs ${c.command} on this machine.`, detail, fingerprint: fingerprintOf({ command: c.command, args: c.args, cwd: c.cwd ?? '', env: c.env ?? {} }) };
}

function fingerprintOf(v: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(v)).digest('hex')}`;
}
