// A plugin's MCP servers (Agent Plugins 1.0 §7.2, and Claude Code's `.mcp.json`): read, checked and turned into
// servers the skills client can start. One module both for running them (their skills join the registry as
// `mcp:<plugin>.<server>:<skill>`) and for `agent-skills validate <plugin>`, so what is checked is what is run.
// Failure boundaries of §7.2.2: a bad file disables MCP for the plugin; a bad entry is skipped alone.
import * as path from 'node:path';
import { z } from 'zod';
import type { McpLaunch } from '../mcp/mcpLaunch';
import { localDisk } from '../host/localDisk';
import { realPathOr } from '../os/realPathOr';
import { asBuffer, stampOrNull, type SyncSkillsHost } from '../host/skillsHost';
// A server's command and folders are resolved on the disk (resolveInRoot): they are a process's.
import { checkRelative, resolveInRoot, resolveInRootOn } from '../paths/resolveInRoot';
import { MAX_MANIFEST_BYTES, parseBoundedJson, type PluginProblem } from './pluginManifest';
import { pluginDataDir } from './pluginRuns';
import type { PluginRead } from './readPlugin';

/** The canonical `$schema` of an Agent Plugins 1.0 `mcp.json` (§7.2.1). Never retrieved. */
export const MCP_SCHEMA_1_0 = 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json';

const RULE = 'Agent Plugins 1.0 §7.2';
const strings = z.array(z.string());
const stringMap = z.record(z.string(), z.string());
const stdio = z.strictObject({ type: z.literal('stdio'), command: z.string().min(1), args: strings.optional(), env: stringMap.optional(), cwd: z.string().optional() });
const remote = z.strictObject({ type: z.enum(['streamable-http', 'sse']), url: z.string().min(1), headers: stringMap.optional() });
/** Claude Code's `.mcp.json` entries: `type` optional (a command means stdio), `http` for Streamable HTTP. */
const claudeStdio = z.strictObject({ type: z.literal('stdio').optional(), command: z.string().min(1), args: strings.optional(), env: stringMap.optional(), cwd: z.string().optional() });
const claudeRemote = z.strictObject({ type: z.enum(['http', 'sse']), url: z.string().min(1), headers: stringMap.optional() });

/** One server of a plugin that can be started (only once the user enabled it by name: discovery never starts one). */
export interface PluginMcpServer {
  /** The plugin's name. */
  plugin: string;
  /** The member name in `mcpServers`. */
  server: string;
  /**
   * The skills client's configuration: name `<plugin>.<server>` (the name the user enables it by), placeholders
   * expanded, paths resolved; a stdio server gets a scrubbed environment (`hostEnv: 'scrubbed'`) with HOME set to the
   * plugin's data folder, as scripts get a HOME of their own.
   */
  config: McpLaunch;
  /** Legacy HTTP+SSE: valid, but this client speaks only stdio and Streamable HTTP (§7.2 allows that). */
  unsupported?: string;
}

/** Header names whose values are credentials (§7.2: headers are visible package data, not a secret store). */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token|x-access-token)$|token|secret|password|apikey|api-key/i;
const CREDENTIAL_VALUE = /^(bearer|basic)\s+\S{8,}|^(sk|ghp|gho|xox[abp]|AKIA)[-_A-Za-z0-9]{12,}/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** A plugin-safe part of a server name (`[A-Za-z0-9._-]`), so `<plugin>.<server>` is a valid skills-client name. */
function serverName(plugin: string, server: string): string {
  const clean = `${plugin}.${server.replace(/[^A-Za-z0-9._-]/g, '-')}`;
  return clean.length <= 64 ? clean : clean.slice(0, 64).replace(/[._-]+$/, '');
}

/** §9.2: one non-recursive replacement of each exact placeholder. */
function expand(value: string, vars: { root: string; data: string }): string {
  return value.replace(/\$\{(PLUGIN_ROOT|PLUGIN_DATA)\}/g, (_m, name: string) => (name === 'PLUGIN_ROOT' ? vars.root : vars.data));
}

/** Every name an MCP configuration of a plugin has in some layout. */
export const MCP_CONFIG_FILE_NAMES: readonly string[] = ['mcp.json', '.mcp.json'];

/** The MCP configuration file of a plugin of `layout`, relative to its root: Claude Code reads `.mcp.json`, the rest `mcp.json` (§7.2). */
export function mcpConfigFileName(layout: PluginRead['layout']): string {
  return layout === 'claude' ? '.mcp.json' : 'mcp.json';
}

/**
 * The MCP servers of a loaded plugin and what is wrong with its MCP configuration. `dataRoot` is where plugin data
 * folders live (the same as for its skills' scripts); a stdio server's `PLUGIN_DATA` is made when it is started.
 */
export function readPluginMcp(plugin: PluginRead, dataRoot: string, options: { text?: string; name?: string; files?: SyncSkillsHost } = {}): { servers: PluginMcpServer[]; problems: PluginProblem[]; file?: string } {
  const files = options.files ?? localDisk;
  const pluginName = plugin.manifest?.name ?? options.name;
  if (!pluginName) return { servers: [], problems: [] };
  const claude = plugin.layout === 'claude';
  const rel = mcpConfigFileName(plugin.layout);
  const file = path.join(plugin.root, rel);
  if (options.text === undefined && files.kind(file, { noFollow: true }) === undefined) return { servers: [], problems: [] };
  const problems: PluginProblem[] = [];
  const fail = (message: string, field?: string) => ({ servers: [], problems: [{ file, field, severity: 'error' as const, rule: `${RULE}.2`, message: `${message} MCP is disabled for plugin "${pluginName}"; its skills still load.` }], file });
  let text: string;
  if (options.text !== undefined) text = options.text;
  else {
    const where = resolveInRootOn(files, plugin.root, rel);
    if (!where.ok) return fail(`${file} resolves outside the plugin folder (${where.reason}).`);
    try {
      const read = files.readFile(where.real ?? where.abs, { maxBytes: MAX_MANIFEST_BYTES });
      if (!read) return fail(`${file} disappeared while it was being read; reload.`);
      text = asBuffer(read.bytes).toString('utf8');
    } catch (e) {
      return fail(`${file} cannot be read (${(e as Error).message}).`);
    }
  }
  const parsed = parseBoundedJson(text, file, `${RULE}.1`);
  if (!parsed.value) return fail(parsed.problem!.message);
  const raw = parsed.value;
  if (!claude) {
    if (raw.$schema !== MCP_SCHEMA_1_0) return fail(`${file}: "$schema" must be "${MCP_SCHEMA_1_0}", the MCP schema of the same Agent Plugins version as plugin.json (1.0.0); it is ${JSON.stringify(raw.$schema)}.`, '$schema');
    const extra = Object.keys(raw).filter((k) => k !== '$schema' && k !== 'mcpServers');
    if (extra.length) return fail(`${file}: top-level field(s) ${extra.map((k) => `"${k}"`).join(', ')} are not allowed; mcp.json holds only "$schema" and "mcpServers".`, extra[0]);
  }
  const servers = raw.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return fail(`${file}: "mcpServers" must be an object of server configurations.`, 'mcpServers');
  const root = realPathOr(plugin.root);
  const data = pluginDataDir(dataRoot, { name: pluginName, root: plugin.root, version: plugin.manifest?.version });
  const out: PluginMcpServer[] = [];
  for (const [key, entry] of Object.entries(servers as Record<string, unknown>).slice(0, 64)) {
    const field = `mcpServers.${key}`;
    const skip = (message: string, severity: 'error' | 'warning' = 'error') => problems.push({ file, field, severity, rule: `${RULE}.1`, message: `${file}: server "${key}": ${message}${severity === 'error' ? ' This server is skipped.' : ''}` });
    const isRemote = typeof entry === 'object' && entry !== null && 'url' in entry;
    const schema = claude ? (isRemote ? claudeRemote : claudeStdio) : isRemote ? remote : stdio;
    const r = schema.safeParse(entry);
    if (!r.success) {
      skip(`${r.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ')}. ${claude ? '' : 'Each entry is { "type": "stdio", "command", "args", "env", "cwd" } or { "type": "streamable-http" | "sse", "url", "headers" }, nothing else.'}`.trim());
      continue;
    }
    const name = serverName(pluginName, key);
    if ('url' in r.data) {
      const url = checkUrl(r.data.url);
      if (typeof url === 'string') {
        skip(url);
        continue;
      }
      const headers = r.data.headers ?? {};
      const seen = new Set<string>();
      let bad = false;
      for (const [h, v] of Object.entries(headers)) {
        if (!HEADER_NAME.test(h) || /[\r\n\0]/.test(v)) bad = skip(`header ${JSON.stringify(h)} is not a valid HTTP header field.`) > 0;
        else if (seen.has(h.toLowerCase())) bad = skip(`header "${h}" is given twice (header names are case-insensitive).`) > 0;
        seen.add(h.toLowerCase());
        if (CREDENTIAL_HEADER.test(h) || CREDENTIAL_VALUE.test(v)) {
          problems.push({ file, field: `${field}.headers.${h}`, severity: 'warning', rule: `${RULE}.1`, message: `${file}: server "${key}": header "${h}" looks like a credential. Headers are visible package data, not a place for secrets; let the client handle authorization.` });
        }
      }
      if (bad) continue;
      const unsupported = r.data.type === 'sse' ? `server "${key}" uses the legacy HTTP+SSE transport, which this client does not speak; its skills are not read.` : undefined;
      out.push({ plugin: pluginName, server: key, config: { name, url: url.href, ...(Object.keys(headers).length ? { headers } : {}) }, ...(unsupported ? { unsupported } : {}) });
      continue;
    }
    const s = r.data;
    if (/\s/.test(s.command) || (!s.command.startsWith('./') && /[/\\]/.test(s.command))) {
      skip(`"command" ${JSON.stringify(s.command)} must be one executable token: a bare name found on PATH, or a path inside the plugin starting with "./". Put arguments in "args".`);
      continue;
    }
    if (s.env && Object.keys(s.env).some((k) => /^PLUGIN_(ROOT|DATA)$/i.test(k))) {
      skip('"env" must not set PLUGIN_ROOT or PLUGIN_DATA (§9.2: the client sets them).');
      continue;
    }
    let command = s.command;
    if (command.startsWith('./')) {
      const exe = resolveInRoot(plugin.root, command);
      if (!exe.ok) {
        skip(`"command" ${command} ${exe.reason === 'not-found' ? 'does not exist in the plugin' : 'resolves outside the plugin folder'}.`);
        continue;
      }
      command = exe.real ?? exe.abs;
    }
    const vars = { root, data };
    let cwd = root;
    if (s.cwd !== undefined) {
      const c = checkCwd(s.cwd, vars);
      if (typeof c !== 'string') {
        skip(c === undefined ? `"cwd" ${JSON.stringify(s.cwd)} must be "./<path>", "\${PLUGIN_ROOT}[/<path>]" or "\${PLUGIN_DATA}[/<path>]", and stay inside that folder.` : c.reason);
        continue;
      }
      cwd = c;
    }
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.env ?? {})) env[k] = expand(v, vars);
    out.push({ plugin: pluginName, server: key, config: { name, command, args: (s.args ?? []).map((a) => expand(a, vars)), env: { HOME: data, ...env, PLUGIN_ROOT: root, PLUGIN_DATA: data }, cwd, hostEnv: 'scrubbed' } });
  }
  return { servers: out, problems, file };
}

/** §7.2.1 URL rules: absolute http(s), no user information, no fragment, HTTPS unless the host is loopback. */
function checkUrl(raw: string): URL | string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `"url" ${JSON.stringify(raw)} is not an absolute URL.`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `"url" must be http or https, not ${u.protocol}`;
  if (u.username || u.password) return '"url" must not carry user information (user:password@); let the client handle authorization.';
  if (raw.includes('#')) return '"url" must not have a fragment (#...).';
  if (u.protocol === 'http:' && !LOOPBACK.test(u.hostname)) return `"url" uses http to ${u.hostname}; only localhost and loopback addresses may use http. Use https.`;
  return u;
}

/** §7.2.1 cwd forms, expanded and held inside their folder; undefined for a form that is not allowed. */
function checkCwd(raw: string, vars: { root: string; data: string }): string | { reason: string } | undefined {
  const forms: [RegExp, string][] = [
    [/^\.\/(.*)$/, vars.root],
    [/^\$\{PLUGIN_ROOT\}(?:\/(.*))?$/, vars.root],
    [/^\$\{PLUGIN_DATA\}(?:\/(.*))?$/, vars.data],
  ];
  for (const [re, base] of forms) {
    const m = re.exec(raw);
    if (!m) continue;
    const rel = m[1] ?? '';
    if (rel === '' || rel === '.') return base;
    if (base === vars.data) {
      // The data folder may not exist yet (it is made before the server starts): the rule's lexical half holds it.
      const checked = checkRelative(rel, { allowRoot: true });
      return checked.ok ? path.join(base, ...checked.rel.split('/').filter(Boolean)) : { reason: `"cwd" ${raw} leaves the plugin data folder.` };
    }
    const r = resolveInRoot(base, rel);
    if (!r.ok) return { reason: `"cwd" ${raw} ${r.reason === 'not-found' ? 'does not exist in the plugin' : 'resolves outside the plugin folder'}.` };
    return r.real ?? r.abs;
  }
  return undefined;
}

/** A server a plugin declares, and whether the user enabled it (for `list`, the Skills view and the flag's check). */
export interface DeclaredPluginMcp {
  plugin: string;
  server: string;
  /** `<plugin>.<server>`: what `--enable-plugin-mcp` and `agentSkills.plugins.enabledMcpServers` name. */
  name: string;
  enabled: boolean;
  /** Why it would not be started even when enabled (legacy SSE). */
  unsupported?: string;
  /** What it is: the command or the URL (for the line that says how to enable it). */
  target: string;
  /** Set when several plugins declare this name: their folders. Such a name is never started, enabled or not. */
  declaredBy?: string[];
}

/** Why an ambiguous name (see {@link DeclaredPluginMcp.declaredBy}) starts nothing, and what to do. */
export function ambiguousServerMessage(d: DeclaredPluginMcp): string {
  return `MCP server ${d.name} is declared by ${d.declaredBy?.length ?? 0} plugins (${(d.declaredBy ?? []).join(', ')}), so it is not started, enabled or not: a plugin can take another's name. Remove or rename the plugin you do not trust.`;
}

/**
 * The servers of `plugins` the skills client may start: only those named in `enabled` (`<plugin>.<server>`), since
 * reading a plugin must never run it. `declared` lists every server each plugin declares with whether it is enabled,
 * and `problems` what is wrong with their configurations. Servers over legacy SSE are never started.
 * `dataRoot` as for {@link readPluginMcp}; `read` lets a caller cache the reads.
 */
export function pluginMcpServers(
  plugins: readonly (PluginRead & { duplicates?: readonly PluginRead[] })[],
  dataRoot: string,
  options: { enabled?: readonly string[]; read?: (plugin: PluginRead, dataRoot: string) => ReturnType<typeof readPluginMcp> } = {},
): { configs: McpLaunch[]; declared: DeclaredPluginMcp[]; problems: PluginProblem[] } {
  const read = options.read ?? readPluginMcp;
  const enabled = new Set(options.enabled ?? []);
  const configs: McpLaunch[] = [];
  const declared: DeclaredPluginMcp[] = [];
  const problems: PluginProblem[] = [];
  // A plugin's name is what its manifest says: another plugin can take it. A name two plugins declare is ambiguous, so
  // enabling it enables neither (which one the user meant cannot be told; the first read could be an impostor).
  type Server = ReturnType<typeof readPluginMcp>['servers'][number];
  const byName = new Map<string, { plugin: PluginRead; server: Server }[]>();
  const add = (plugin: PluginRead, server: Server) => byName.set(server.config.name, [...(byName.get(server.config.name) ?? []), { plugin, server }]);
  for (const p of plugins) {
    const r = read(p, dataRoot);
    problems.push(...r.problems);
    for (const s of r.servers) add(p, s);
    // A folder with the same name and version (not loaded): its servers make the name ambiguous, its problems are its copy's.
    for (const d of p.duplicates ?? []) for (const s of read(d, dataRoot).servers) add(d, s);
  }
  for (const [name, all] of byName) {
    const s = all[0].server;
    const roots = [...new Set(all.map((x) => x.plugin.root))];
    const ambiguous = roots.length > 1 ? { declaredBy: roots } : {};
    const on = enabled.has(name) && roots.length === 1;
    declared.push({ plugin: s.plugin, server: s.server, name, enabled: on, target: 'url' in s.config ? s.config.url : s.config.command, ...(s.unsupported ? { unsupported: s.unsupported } : {}), ...ambiguous });
    if (on && !s.unsupported) configs.push(s.config);
  }
  return { configs, declared, problems };
}

/**
 * One line per plugin whose servers are not started: which servers it declares and how to start one (`howTo`
 * gives the surface's way: a CLI flag or a setting). Nothing when every declared server is enabled.
 */
export function pluginMcpNotices(declared: readonly DeclaredPluginMcp[], howTo: (name: string) => string): string[] {
  const byPlugin = new Map<string, DeclaredPluginMcp[]>();
  for (const d of declared) if (!d.enabled && !d.unsupported && !d.declaredBy) byPlugin.set(d.plugin, [...(byPlugin.get(d.plugin) ?? []), d]);
  return [...declared.filter((d) => d.declaredBy).map(ambiguousServerMessage), ...[...byPlugin].map(([plugin, ds]) => `Plugin "${plugin}" declares MCP server(s) ${ds.map((d) => `${d.name} (${d.target})`).join(', ')}, not started: reading a plugin never runs it. To start one, ${howTo(ds[0].name)}.`)];
}

/**
 * {@link readPluginMcp} that reads a plugin's MCP configuration again only when the plugin was read again or its
 * file changed (a stat, which follows a link, instead of a read and a parse), for callers that ask on every refresh.
 */
export function cachedPluginMcpReader(files: SyncSkillsHost = localDisk): (plugin: PluginRead, dataRoot: string) => ReturnType<typeof readPluginMcp> {
  const cache = new WeakMap<PluginRead, { key: string; result: ReturnType<typeof readPluginMcp> }>();
  return (plugin, dataRoot) => {
    const file = path.join(plugin.root, mcpConfigFileName(plugin.layout));
    // A link is stamped by what it leads to (a stamp of the link itself would miss an edit of its target). Something
    // there that cannot be stamped ('?': a stat that fails, a FIFO, a folder) is read again each time.
    const st = stampOrNull(files, file);
    const there = st ? `${st.ino ?? ''}:${st.mtimeMs}:${st.size}` : st === undefined && files.kind(file, { noFollow: true }) === undefined ? '-' : '?';
    const key = `${dataRoot}\0${there}`;
    const hit = cache.get(plugin);
    if (hit?.key === key && there !== '?') return hit.result;
    const result = readPluginMcp(plugin, dataRoot, { files });
    cache.set(plugin, { key, result });
    return result;
  };
}
