import * as os from 'node:os';
import { printable, printableLines } from '../terminalText';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createAgentSkills } from '../../core/agentSkills';
import type { SessionState } from '../../core/runtime';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';

/** The runtime state folder of the CLI: `--state-dir`, else $AGENT_SKILLS_STATE_DIR, else ~/.agent-skills. */
export function cliStateDir(flag: string | undefined): string {
  return path.resolve(flag ?? process.env.AGENT_SKILLS_STATE_DIR ?? path.join(os.homedir(), '.agent-skills'));
}

const ACTIONS = ['list', 'show', 'clear', 'delete'] as const;

/** `agent-skills session list|show|clear|delete`: inspect and manage persisted runtime sessions. */
export const sessionCommand: CliCommand = {
  name: 'session',
  usage: 'session list|show <id>|clear <id>|delete <id> [--state-dir <dir>] [--json]',
  summary: 'List, show, clear (unload everything) or delete the persisted skill sessions of the runtime.',
  help: {
    options: [['list', 'List the sessions (id, skills loaded, last change).'], ['show <id>', 'Print one session.'], ['clear <id>', 'Unload every skill of a session.'], ['delete <id>', 'Delete a session.'], ['--state-dir <dir>', 'The runtime state folder (default: the user state folder).'], ['--json', 'Print JSON.']],
    exitCodes: [[0, 'done'], [1, 'the session is unknown or the state folder cannot be read or written']],
  },
  async run(args) {
    let parsed;
    try {
      parsed = parseArgs({ args, options: { 'state-dir': { type: 'string' }, json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const [action, id, ...extra] = parsed.positionals;
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) throw new UsageError(`give an action: ${ACTIONS.join(', ')}.`);
    if (action === 'list' ? id !== undefined : id === undefined || extra.length) throw new UsageError(action === 'list' ? 'list takes no session id.' : `${action} needs exactly one session id (see 'agent-skills session list').`);
    const dir = cliStateDir(parsed.values['state-dir']);
    // The sessions of the same core every other command assembles (its host, its state folder); not audited, as before.
    const store = createAgentSkills({ stateDir: dir, runtime: { audit: false } }).tools().sessions;
    for (const p of store.loadProblems) process.stderr.write(`warning: ${printable(p.file)}: ${printableLines(p.problem)}\n`);
    const json = parsed.values.json;
    // Skill names, folders and doc paths in a session are what skills chose: printed as text, their control characters escaped.
    const out = (v: unknown, text: string) => process.stdout.write(json ? `${JSON.stringify(v, null, 2)}\n` : printableLines(text));
    if (action === 'list') {
      const all = store.list();
      out(all, all.length ? `${all.map(summary).join('\n')}\n` : `No sessions in ${dir}.\n`);
      return 0;
    }
    const s = store.get(id);
    if (!s) {
      process.stderr.write(`agent-skills session: no session '${printable(id)}' in ${printable(dir)}. Run 'agent-skills session list' to see the ids.\n`);
      return 1;
    }
    if (action === 'show') out(s, `${details(s)}\n`);
    else if (action === 'clear') {
      const c = await store.clear(id);
      out(c, `Cleared session ${id}: ${s.active_skills.length} skill(s) unloaded.\n`);
    } else {
      await store.delete(id);
      out({ deleted: id }, `Deleted session ${id}.\n`);
    }
    await store.flush();
    return 0;
  },
};

function summary(s: SessionState): string {
  const loaded = s.active_skills.map((a) => a.name).join(', ') || '-';
  return `${s.id}  mode=${s.load_mode}  turn=${s.turn}  updated=${s.updated_at}  loaded=${loaded}`;
}

function details(s: SessionState): string {
  const lines = [summary(s)];
  for (const a of s.active_skills) {
    const docs = a.docs === '*' ? 'all docs' : a.docs.length ? a.docs.join(', ') : 'no docs';
    lines.push(`  ${a.name}  ${s.lifecycle[a.name] ?? 'loaded'}  ${a.digest.slice(0, 19)}  ${a.root_dir}  (${docs})`);
  }
  const others = Object.entries(s.lifecycle).filter(([n]) => !s.active_skills.some((a) => a.name === n));
  for (const [n, st] of others) lines.push(`  ${n}  ${st}`);
  return lines.join('\n');
}
