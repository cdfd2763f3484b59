import { relativeInside } from '../../core/paths/resolveInRoot';
import type { McpSkillsClient } from '../../core/mcp/mcpSkillsClient';
import type { SkillRecord } from '../../core/registry';
import { sourceOf } from '../../core/sources';
import type { CliCommand } from '../cliCommand';
import { printable, printableLines } from '../terminalText';
import { discover, DISCOVERY_HELP, DISCOVERY_USAGE, parseDiscoveryArgs } from './discovery';

/**
 * `agent-skills list`: every skill discovered in the default roots (the current folder as the workspace,
 * plus the home folder's skill folders) and any `--root`s, with the shadowed, ambiguous and broken ones.
 */
export const listCommand: CliCommand = {
  name: 'list',
  usage: `list ${DISCOVERY_USAGE} [--json]`,
  summary: 'List discovered skills with scope, id, location and digest, and the shadowed, ambiguous and broken ones (exit 1 if any is ambiguous or broken).',
  help: {
    options: [...DISCOVERY_HELP, ['--json', 'Print JSON.']],
    exitCodes: [[0, 'listed; no skill is ambiguous or broken'], [1, 'some skill is ambiguous (same name twice) or broken']],
  },
  async run(args) {
    const { values } = parseDiscoveryArgs(args, { json: { type: 'boolean', default: false } }, false);
    const { snapshot, plugins, clients, mcpDeclared, mcpNotices, close } = await discover('list', values);
    const records = snapshot.records;
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
      await close();
    }
    const serverProblem = clients.some((c) => c.state.state === 'down' || c.problems.length > 0);
    return serverProblem || plugins.some((p) => p.problems.some((x) => x.severity === 'error')) || records.some((r) => r.status === 'broken' || r.status === 'ambiguous') ? 1 : 0;
  },
};

function formatTable(records: readonly SkillRecord[], rootCount: number): string {
  if (records.length === 0) return `No skills found in ${rootCount} folder(s). Skills live in <root>/<skill-name>/SKILL.md; add a folder with --root <dir>.\n`;
  const rows = records.map((r) => [r.status, sourceOf(r.scope).scopeWord, printable(r.id), printable(displayPath(r.location)), r.digest ? r.digest.slice(0, 'sha256:'.length + 12) : '-']);
  const header = ['STATUS', 'SCOPE', 'ID', 'LOCATION', 'DIGEST'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  const out = [line(header)];
  records.forEach((r, i) => {
    out.push(line(rows[i]));
    const note = noteFor(r);
    if (note) out.push(`    ${printable(note)}`);
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
    out.push(`  ${printable(c.config.name)}: ${st.state === 'up' ? `up, ${st.skills} skill(s)` : st.state === 'connecting' ? 'connecting' : `${st.state}: ${printable(st.reason)}`}`);
    for (const s of c.list()) out.push(`    ${printable(s.id)}  ${printable(s.entry.uri)}`);
    for (const p of c.problems) out.push(`    problem: ${printable(p.message)}`);
  }
  return `${printableLines(out.join('\n'))}\n`;
}

function displayPath(p: string): string {
  return relativeInside(process.cwd(), p) || p;
}
