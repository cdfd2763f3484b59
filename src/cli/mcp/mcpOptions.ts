import { parseArgs } from 'node:util';
import type { SandboxPolicy } from '../../core/exec';
import { toolSurfaceSchema, type ToolSurface } from '../../core/catalog/catalogSurface';
import type { McpServerConfig } from '../../core/mcp/mcpServerConfig';
import { mcpServerFlags } from '../cliSources';
import { UsageError } from '../usageError';
import { redisUrlLabel } from '../../core/runtime/redisStateStore';
import { CONFIRM_SCRIPTS, type ConfirmScripts } from './scriptConsent';

/** Environment variable holding the HTTP bearer token (instead of `--token`, which `ps` shows). */
export const TOKEN_ENV = 'AGENT_SKILLS_MCP_TOKEN';

/** Parsed `agent-skills mcp` options. */
export interface McpOptions {
  roots: string[];
  /** Agent Plugin folders (`--plugin`), besides those agents installed. */
  plugins: string[];
  noDefaults: boolean;
  stateDir?: string;
  surface: ToolSurface;
  allowScripts: boolean;
  /** `--confirm-scripts`: whom to ask before a script runs (scriptConsent.ts; default when-supported). */
  confirmScripts: ConfirmScripts;
  readOnly: boolean;
  /** `--no-tools`: serve resources, prompts and instructions only. */
  noTools: boolean;
  sandbox?: SandboxPolicy;
  /** `--http [host:]port`; undefined for stdio. */
  http?: { host: string; port: number };
  token?: string;
  /** Extra allowed Origins (exact, e.g. `https://team.example`); loopback origins are always allowed on a loopback bind. */
  allowOrigins: string[];
  /** Extra allowed Host header names (the proxy's public name). */
  allowHosts: string[];
  maxSessions: number;
  maxBodyBytes: number;
  idleTimeoutMs: number;
  printConfig?: string;
  /** Other MCP servers whose skills this server also offers (as `mcp:<server>:<skill>`, instructions only). */
  mcpServers: McpServerConfig[];
  /** `--enable-plugin-mcp <plugin>.<server>`: plugin MCP servers to start (no plugin's server starts otherwise). */
  enablePluginMcp: string[];
  /** `--state-store redis://host:port/db`: where 2026-07-28 session handles' state lives (default the state folder). */
  stateStore?: string;
}

function positiveInt(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} needs a whole number above 0, not '${v}'.`);
  return n;
}

/** `[host:]port`, host defaulting to 127.0.0.1; IPv6 hosts in brackets (`[::1]:8080`). */
export function parseHttpAddress(v: string): { host: string; port: number } {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(v);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--http takes [host:]port, e.g. 8765 or 0.0.0.0:8765, not '${v}'.`);
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

/** Parses the command line of `agent-skills mcp`; bad arguments throw UsageError naming the option. */
export function parseMcpOptions(args: string[], env: NodeJS.ProcessEnv = process.env): McpOptions {
  let p;
  try {
    p = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        root: { type: 'string', multiple: true, default: [] },
        plugin: { type: 'string', multiple: true, default: [] },
        'no-defaults': { type: 'boolean', default: false },
        'state-dir': { type: 'string' },
        'tool-surface': { type: 'string', default: 'standard' },
        'allow-scripts': { type: 'boolean', default: false },
        'confirm-scripts': { type: 'string' },
        'read-only': { type: 'boolean', default: false },
        'no-tools': { type: 'boolean', default: false },
        sandbox: { type: 'string' },
        http: { type: 'string' },
        token: { type: 'string' },
        'allow-origin': { type: 'string', multiple: true, default: [] },
        'allow-host': { type: 'string', multiple: true, default: [] },
        'max-sessions': { type: 'string' },
        'max-body-kb': { type: 'string' },
        'idle-timeout': { type: 'string' },
        'print-config': { type: 'string' },
        'mcp-server': { type: 'string', multiple: true, default: [] },
        'enable-plugin-mcp': { type: 'string', multiple: true, default: [] },
        'state-store': { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = p.values;
  const surface = toolSurfaceSchema.safeParse(v['tool-surface']);
  if (!surface.success) throw new UsageError(`--tool-surface is standard, minimal or both, not '${v['tool-surface']}'.`);
  const sandbox = v.sandbox;
  if (sandbox !== undefined && sandbox !== 'auto' && sandbox !== 'off' && sandbox !== 'required') throw new UsageError('--sandbox is auto, off or required.');
  if (v['no-tools'] && v['allow-scripts']) throw new UsageError('--no-tools offers no tool, so --allow-scripts has nothing to allow: drop one of them.');
  const confirm = v['confirm-scripts'];
  if (confirm !== undefined && !(CONFIRM_SCRIPTS as readonly string[]).includes(confirm)) throw new UsageError(`--confirm-scripts is ${CONFIRM_SCRIPTS.join(', ')}, not '${confirm.slice(0, 40)}'.`);
  if (confirm !== undefined && !v['allow-scripts']) throw new UsageError('--confirm-scripts says when to ask before a script runs, and without --allow-scripts no script runs: add --allow-scripts or drop --confirm-scripts.');
  const http = v.http !== undefined ? parseHttpAddress(v.http) : undefined;
  if (v['state-store'] !== undefined) {
    try {
      redisUrlLabel(v['state-store']);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const token = v.token ?? (env[TOKEN_ENV] || undefined);
  if (token !== undefined && token.length < 16) throw new UsageError(`the bearer token (--token or ${TOKEN_ENV}) must be at least 16 characters; generate one with: openssl rand -hex 32`);
  return {
    roots: v.root,
    plugins: v.plugin,
    noDefaults: v['no-defaults'],
    stateDir: v['state-dir'],
    surface: surface.data,
    allowScripts: v['allow-scripts'],
    confirmScripts: (confirm ?? 'when-supported') as ConfirmScripts,
    readOnly: v['read-only'],
    noTools: v['no-tools'],
    sandbox: sandbox as SandboxPolicy | undefined,
    http,
    token,
    allowOrigins: v['allow-origin'],
    allowHosts: v['allow-host'],
    maxSessions: positiveInt('--max-sessions', v['max-sessions'], 64),
    maxBodyBytes: positiveInt('--max-body-kb', v['max-body-kb'], 1024) * 1024,
    idleTimeoutMs: positiveInt('--idle-timeout', v['idle-timeout'], 1800) * 1000,
    printConfig: v['print-config'],
    enablePluginMcp: v['enable-plugin-mcp'],
    stateStore: v['state-store'],
    mcpServers: mcpServerFlags(v['mcp-server']),
  };
}
