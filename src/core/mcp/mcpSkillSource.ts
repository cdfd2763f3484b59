// MCP-served skills as part of the runtime's skill source: ids `mcp:<server>:<skill>`, lowest precedence, shown
// under their id whenever the bare name is taken (by a local skill or another server), so they never shadow and are
// never silently substituted. A served name that only looks like another skill's (the same UTS #39 confusable
// skeleton: a Cyrillic `рdf` beside `pdf`) is refused when it is not plain ASCII, and shown under its id when it is
// (`rnail` beside `mail`). Content is fetched on first use (`prepare`), verified, and served read-only from the
// cache; scripts of MCP-served skills are never run.
import { isInside } from '../paths/isInside';
import { isSimpleName } from '../skill/rules/name';
import { lookAlikeKey } from '../text/confusableSkeleton';
import * as path from 'node:path';
import type { SkillRecord, SkillRoot } from '../registry/registryTypes';
import { ToolError } from '../tools/toolError';
import { guardedExecutor } from '../runtime/guardedExecutor';
import type { ExecRequest, ScriptExecutor, SkillSource } from '../runtime/runtimeTypes';
import type { McpSkill, McpSkillsClient } from './mcpSkillsClient';

/** The source plus what hosts need to show MCP skills. */
export interface McpAwareSource extends SkillSource {
  prepare(tool: string, input: unknown): Promise<void>;
  /** The MCP skill a record or id stands for, if any. */
  mcpSkillOf(idOrName: string): { skill: McpSkill; client: McpSkillsClient } | undefined;
  readonly clients: readonly McpSkillsClient[];
  /** Only the MCP-served records (for hosts that list them apart from their own registry). */
  mcpRecords(): SkillRecord[];
}

const NOT_RUN_HINT = 'Follow the skill\'s instructions with your own tools instead; if the user trusts the skill, they can install it locally to run its scripts.';

/**
 * For each name, the other names it would be taken for: different names with the same confusable skeleton (UTS #39),
 * letter case aside (lookAlikeKey).
 * `names` are every local name and every served one.
 */
function lookAlikes(names: Iterable<string>): (name: string) => string[] {
  const bySkeleton = new Map<string, Set<string>>();
  for (const n of names) {
    const k = lookAlikeKey(n);
    const set = bySkeleton.get(k) ?? new Set<string>();
    set.add(n);
    bySkeleton.set(k, set);
  }
  return (name) => [...(bySkeleton.get(lookAlikeKey(name)) ?? [])].filter((other) => other !== name);
}


/** `base` plus the skills of `clients` (each already connected; a getter when the host reconnects on settings changes). */
export function withMcpSkills(base: SkillSource, clientsOf: readonly McpSkillsClient[] | (() => readonly McpSkillsClient[])): McpAwareSource {
  const current = typeof clientsOf === 'function' ? clientsOf : () => clientsOf;
  /** Look-alike refusals already added to a client's problems (the listing is computed again on every call). */
  const reported = new Set<string>();
  const records = (): { rec: SkillRecord; skill: McpSkill; client: McpSkillsClient }[] => {
    const clients = current();
    if (!clients.length) return [];
    const local = new Set(base.list().map((r) => r.name));
    const count = new Map<string, number>();
    for (const c of clients) for (const s of c.list()) count.set(s.name, (count.get(s.name) ?? 0) + 1);
    const lookAlike = lookAlikes([...local, ...count.keys()]);
    return clients.flatMap((client) =>
      client.list().flatMap((skill) => {
        const ascii = isSimpleName(skill.name);
        // Not plain ASCII and looking like another name: a name made to be taken for another skill (an all-Cyrillic
        // `рdf` beside the local `pdf`); even under its id it would be read as that skill in a listing. A plain ASCII
        // name is not moved by a served look-alike that is refused here, only by a local one or a served ASCII one.
        const likes = lookAlike(skill.name).filter((n) => !ascii || local.has(n) || isSimpleName(n));
        // Named after the skill it would be taken for: a local one, else a plain one (not another look-alike).
        const like = likes.find((n) => local.has(n)) ?? likes.find(isSimpleName) ?? likes[0];
        if (like !== undefined && !ascii) {
          const key = `${skill.server}\0${skill.name}\0${like}`;
          if (!reported.has(key)) {
            reported.add(key);
            const whose = local.has(like) ? 'a local skill' : 'a skill of another MCP server';
            client.problems.push({ server: skill.server, skill: skill.name, message: `Skipped skill '${skill.name}' from '${skill.server}': its name looks like '${like}' (${whose}; the same Unicode confusable skeleton, UTS #39) and is not plain ASCII, so it could be taken for that skill. A served skill whose name only looks like another's is not listed; the server should give it a distinct name.` });
          }
          return [];
        }
        const dir = client.skillDir(skill.name);
        const root: SkillRoot = { path: path.dirname(dir), scope: 'mcp', source: skill.server };
        // The bare name only for a plain ASCII name no other skill has: any other is shown under its id, so a served
        // name never reads as a local one (nor, being well-formed, as another skill's id: mcpSkillsClient.skillOf).
        // An ASCII look-alike (`rnail` beside `mail`, `too1` beside `tool`) is shown under its id too.
        const taken = !ascii || local.has(skill.name) || (count.get(skill.name) ?? 0) > 1 || like !== undefined;
        const digest = skill.entry.resources?.find((r) => r.uri === skill.entry.uri)?.digest ?? '';
        const rec: SkillRecord = {
          id: skill.id,
          name: taken ? skill.id : skill.name,
          description: skill.description,
          location: path.join(dir, 'SKILL.md'),
          rootDir: dir,
          scope: 'mcp',
          root,
          properties: skill.entry.frontmatter,
          digest,
          diagnostics: [],
          status: 'ok',
          shadows: [],
        };
        return [{ rec, skill, client }];
      }),
    );
  };
  // An id names one skill of one server, so ids are matched before any name.
  const find = (idOrName: string) => {
    const all = records();
    return all.find((r) => r.rec.id === idOrName) ?? all.find((r) => r.rec.name === idOrName);
  };
  const baseResolve = (nameOrId: string): SkillRecord | undefined => base.resolve(nameOrId);

  return {
    get clients() {
      return current();
    },
    mcpRecords: () => records().map((r) => r.rec),
    list: () => (current().length ? [...base.list(), ...records().map((r) => r.rec)] : base.list()),
    resolve(nameOrId) {
      if (nameOrId.startsWith('mcp:')) return find(nameOrId)?.rec;
      try {
        const r = baseResolve(nameOrId);
        if (r) return r;
      } catch (e) {
        const m = find(nameOrId);
        if (m) return m.rec;
        throw e;
      }
      return find(nameOrId)?.rec;
    },
    overlayDir: base.overlayDir ? (id) => base.overlayDir?.(id) : undefined,
    // The servers' lists keep no history: with any server, the index compares the whole list (no cursor is given,
    // so one taken before a server came is never used after it left). With none, the list is the base's.
    changes: (since) => (current().length ? undefined : base.changes?.(since)),
    mcpSkillOf(idOrName) {
      const m = find(idOrName);
      return m && { skill: m.skill, client: m.client };
    },
    async prepare(tool, input) {
      const i = (input ?? {}) as { names?: unknown; skill?: unknown };
      const names = [...(Array.isArray(i.names) ? i.names : []), ...(typeof i.skill === 'string' ? [i.skill] : [])].filter((n): n is string => typeof n === 'string');
      for (const n of names) {
        let rec: SkillRecord | undefined;
        try {
          rec = this.resolve(n);
        } catch {
          continue; // the tool itself reports unknown names
        }
        const m = rec && find(rec.id);
        if (!m) continue;
        try {
          await m.client.fetchSkill(m.skill.name);
        } catch (e) {
          throw new ToolError('skill_unusable', (e as Error).message, 'Use another skill, or tell the user the MCP server serves content that does not match its listing.');
        }
      }
    },
  };
}

/**
 * An executor that refuses any run whose skill lies in an MCP cache folder (`<cache>/<server>/<skill>`). This is the
 * one place an MCP-served skill's run is refused: every run (a model's run_script, a user's run) reaches it, and
 * `prepare` decides nothing about runs.
 */
export function refuseMcpScripts(executor: ScriptExecutor, cacheDir: string, onRefused?: (message: string) => void): ScriptExecutor {
  const refusal = (req: ExecRequest): ToolError | undefined => {
    const cache = path.resolve(cacheDir);
    const dir = path.resolve(req.skillRoot);
    if (!isInside(cache, dir)) return undefined;
    const [server, name] = path.relative(cache, dir).split(path.sep);
    const who = server && name ? `Skill mcp:${server}:${name} is served by MCP server '${server}'` : `Skill ${req.skillName} was served over MCP`;
    return new ToolError('run_refused', `${who}: MCP-served skills are instructions only, and their scripts are never run on this machine.`, NOT_RUN_HINT);
  };
  return guardedExecutor(executor, (req, attempt) => {
    const refused = refusal(req);
    if (!refused) return req;
    // A check refuses as the run would, without reporting a refused run (nothing was tried).
    if (attempt === 'run') onRefused?.(refused.message);
    throw refused;
  });
}
