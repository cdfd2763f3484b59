import { relativeInside } from '../../core/paths/resolveInRoot';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createAgentSkills } from '../../core/agentSkills';
import { parseMcpServerFlag } from '../../core/mcp/mcpServerConfig';
import type { McpSkillsClient } from '../../core/mcp/mcpSkillsClient';
import { cliPlugins } from '../pluginFlags';
import { defaultSkillRoots, type SkillRecord, type SkillRoot, type SkillScope } from '../../core/registry';
import { sourceForScopeWord, sourceOf } from '../../core/sources';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';
import { cliStateDir } from './session';

/** `<scope word>:<rest>`; the rest is `<source>:<dir>` for kinds whose ids carry a source. */
const PREFIXED = /^([a-z]+):(.*)$/;
const SOURCED = /^([^:]+):(.+)$/;

/**
 * `agent-skills list`: every skill discovered in the default roots (the current folder as the workspace,
 * plus the home folder's skill folders) and any `--root`s, with the shadowed, ambiguous and broken ones.
 */
export const listCommand: CliCommand = {
  name: 'list',
  usage: 'list [--root [project:|user:|plugin:<id>:|pack:<name>:]<dir>]... [--plugin <dir>]... [--mcp-server <name>=<url|command>]... [--enable-plugin-mcp <plugin>.<server>]... [--state-dir <dir>] [--no-defaults] [--strict] [--json]',
  summary: 'List discovered skills with scope, id, location and digest, and the shadowed, ambiguous and broken ones (exit 1 if any is ambiguous or broken).',
  async run(args) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: {
          root: { type: 'string', multiple: true, default: [] },
          json: { type: 'boolean', default: false },
          strict: { type: 'boolean', default: false },
          'no-defaults': { type: 'boolean', default: false },
          'mcp-server': { type: 'string', multiple: true, default: [] },
          plugin: { type: 'string', multiple: true, default: [] },
          'enable-plugin-mcp': { type: 'string', multiple: true, default: [] },
          'state-dir': { type: 'string' },
        },
        allowPositionals: false,
        strict: true,
      }));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const extraRoots = values.root.map(parseRootArg);
    const servers = values['mcp-server'].map((v) => {
      try {
        return parseMcpServerFlag(v);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    });
    // Plugins named with --plugin, then (unless --no-defaults) those Claude Code and Copilot CLI installed for this user.
    // Their MCP servers are only read: one starts only when named with --enable-plugin-mcp.
    const { plugins, roots: pluginRoots, mcpServers: pluginServers, mcpDeclared, mcpNotices } = cliPlugins('list', values.plugin, values['no-defaults'], cliStateDir(values['state-dir']), values['enable-plugin-mcp']);
    if (values['no-defaults'] && extraRoots.length === 0 && servers.length === 0 && plugins.length === 0) throw new UsageError('--no-defaults leaves no folder to scan: add at least one --root <dir>.');
    const roots: SkillRoot[] = [
      ...(values['no-defaults'] ? defaultSkillRoots({ extraRoots }) : defaultSkillRoots({ workspaceFolders: [process.cwd()], homeDir: os.homedir(), extraRoots })),
      ...pluginRoots,
    ];
    const { registry } = createAgentSkills({ roots, mode: values.strict ? 'strict' : 'lenient', stateDir: cliStateDir(values['state-dir']) });
    const snapshot = await registry.refresh();
    const records = snapshot.records;
    // The MCP client (the SDK) is loaded only when there is a server to ask.
    const wanted = [...servers, ...pluginServers];
    const all: McpSkillsClient[] = wanted.length
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        await (require('../../core/mcp/connectMcpServers') as typeof import('../../core/mcp/connectMcpServers')).connectMcpServers(wanted, cliStateDir(values['state-dir']))
      : [];
    // An enabled plugin server is shown as any named server: the user asked for it, so its state is their concern.
    const named = new Set([...servers, ...pluginServers].map((s) => s.name));
    const clients = all.filter((c) => named.has(c.config.name) || c.state.state === 'up');
    try {
      if (values.json) {
        // Users read scopes by the words they write in --root (`project`), not the kinds' internal names.
        const word = <T extends { scope: string }>(x: T): T => ({ ...x, scope: sourceOf(x.scope).scopeWord });
        const skills = records.map((r) => ({ ...word(r), root: word(r.root) }));
        process.stdout.write(`${JSON.stringify({ roots: snapshot.roots.map(word), skills, mcpServers: clients.map(mcpJson), pluginMcpServers: mcpDeclared }, null, 2)}\n`);
      } else {
        process.stdout.write(formatTable(records, snapshot.roots.length));
        if (clients.length) process.stdout.write(formatMcp(clients));
        for (const n of mcpNotices) process.stdout.write(`${n}\n`);
      }
    } finally {
      await Promise.all(all.map((c) => c.close()));
    }
    const serverProblem = clients.some((c) => c.state.state === 'down' || c.problems.length > 0);
    return serverProblem || plugins.some((p) => p.problems.some((x) => x.severity === 'error')) || records.some((r) => r.status === 'broken' || r.status === 'ambiguous') ? 1 : 0;
  },
};

/** `<dir>` or `project:<dir>` (the workspace source), `user:<dir>`, `plugin:<extension id>:<dir>`, `pack:<name>:<dir>`. */
export function parseRootArg(arg: string): { path: string; scope: SkillScope; source?: string } {
  if (arg.trim() === '') throw new UsageError('--root needs a folder, e.g. --root ./skills or --root user:~/my-skills.');
  const prefixed = PREFIXED.exec(arg);
  const kind = prefixed ? sourceForScopeWord(prefixed[1]) : undefined;
  if (prefixed && kind?.idHasSource) {
    const sourced = SOURCED.exec(prefixed[2]);
    if (!sourced) throw new UsageError(`--root ${arg}: a ${kind.scopeWord} root needs a source, e.g. --root ${kind.scopeWord}:acme.tools:<dir>.`);
    return { scope: kind.name as SkillScope, source: sourced[1], path: path.resolve(expandHome(sourced[2])) };
  }
  if (prefixed && kind && prefixed[2] !== '') return { scope: kind.name as SkillScope, source: 'cli', path: path.resolve(expandHome(prefixed[2])) };
  return { scope: 'workspace', source: 'cli', path: path.resolve(expandHome(arg)) };
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

function formatTable(records: readonly SkillRecord[], rootCount: number): string {
  if (records.length === 0) return `No skills found in ${rootCount} folder(s). Skills live in <root>/<skill-name>/SKILL.md; add a folder with --root <dir>.\n`;
  const rows = records.map((r) => [r.status, sourceOf(r.scope).scopeWord, r.id, displayPath(r.location), r.digest ? r.digest.slice(0, 'sha256:'.length + 12) : '-']);
  const header = ['STATUS', 'SCOPE', 'ID', 'LOCATION', 'DIGEST'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  const out = [line(header)];
  records.forEach((r, i) => {
    out.push(line(rows[i]));
    const note = noteFor(r);
    if (note) out.push(`    ${note}`);
  });
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const summary = ['ok', 'shadowed', 'ambiguous', 'broken'].filter((s) => counts.get(s)).map((s) => `${counts.get(s)} ${s}`);
  out.push('', `${records.length} skill(s) in ${rootCount} folder(s): ${summary.join(', ')}.`, '');
  return out.join('\n');
}

function noteFor(r: SkillRecord): string | undefined {
  switch (r.status) {
    case 'shadowed':
      return `shadowed by ${r.shadowedBy}`;
    case 'ambiguous':
      return `ambiguous with ${r.ambiguousWith?.join(', ')}: rename one of them or remove it`;
    case 'broken': {
      const d = r.diagnostics.find((x) => x.severity === 'error');
      return d ? `${d.rule} (line ${d.range.start.line + 1}): ${d.message}` : 'broken';
    }
    default:
      return r.shadows.length ? `shadows ${r.shadows.join(', ')}` : undefined;
  }
}

function mcpJson(c: McpSkillsClient) {
  return { name: c.config.name, ...c.state, skills: c.list().map((s) => ({ id: s.id, name: s.name, description: s.description, uri: s.entry.uri })), problems: c.problems };
}

/** MCP-served skills, per server: its state, then `mcp:<server>:<skill>` with the SKILL.md URI (fetched only when used). */
function formatMcp(clients: readonly McpSkillsClient[]): string {
  const out = ['MCP servers (their skills are read-only and never run here):'];
  for (const c of clients) {
    const st = c.state;
    out.push(`  ${c.config.name}: ${st.state === 'up' ? `up, ${st.skills} skill(s)` : st.state === 'connecting' ? 'connecting' : `${st.state}: ${st.reason}`}`);
    for (const s of c.list()) out.push(`    ${s.id}  ${s.entry.uri}`);
    for (const p of c.problems) out.push(`    problem: ${p.message}`);
  }
  return `${out.join('\n')}\n`;
}

function displayPath(p: string): string {
  return relativeInside(process.cwd(), p) || p;
}
