import { parseAllowedTools } from './toolPermission';
import { resolveBodyReferences, type ResolvedReference } from './referencedFiles';
import { effectiveDocFiles, effectiveLocation } from './effectiveFiles';
import { ToolError } from '../tools/toolError';
import { resolveUsable, sessionOf, type ToolCall, type ToolContext } from './toolContext';
import { succeeded, type ToolSuccess } from '../tools/toolResult';
import type { LoadInput, UnloadInput } from './runtimeToolInputs';
import type { ActiveSkill, DocsSelection, LoadMode, SessionState } from './runtimeTypes';

/** Seed 000's receipt entry for one loaded skill. */
export interface LoadedSkillReceipt {
  name: string;
  location: string;
  root_dir: string;
  digest: string;
  properties: Record<string, unknown>;
  /** Docs selected for injection. */
  docs: DocsSelection;
  /** Files the body references that exist (only for skills this call loaded): what `read` may fetch next. */
  files?: ResolvedReference[];
  /** `allowed-tools` of the skill: pre-approved while it is loaded. */
  pre_approved_tools?: string[];
}

export interface LoadResult {
  loaded: string[];
  active_skills: LoadedSkillReceipt[];
  load_mode: LoadMode;
  note: string;
}

export interface UnloadResult {
  unloaded: string[];
  not_loaded: string[];
  active_skills: LoadedSkillReceipt[];
}

function receiptOf(a: ActiveSkill, properties: Record<string, unknown>): LoadedSkillReceipt {
  const tools = parseAllowedTools(properties['allowed-tools']);
  return {
    name: a.name,
    location: a.location,
    root_dir: a.root_dir,
    digest: a.digest,
    properties,
    docs: a.docs,
    ...(tools ? { pre_approved_tools: tools } : {}),
  };
}

/** Receipts for every loaded skill, in load order. */
export async function receipts(ctx: ToolContext, s: SessionState): Promise<LoadedSkillReceipt[]> {
  const out: LoadedSkillReceipt[] = [];
  for (const a of s.active_skills) out.push(receiptOf(a, (await ctx.content.skillFile(a.name, await effectiveLocation(ctx.content.files, ctx.source, a))).properties));
  return out;
}

const MODE_NOTE: Record<LoadMode, string> = {
  turn: 'The instructions are in your context until the user sends the next message.',
  once: 'The instructions are in your context for the next model call only; follow them now.',
  session: 'The instructions stay in your context until the skill is unloaded.',
};

/** `load`: resolves names, enforces the cap, records the skills and returns seed 000's receipt. */
export async function loadSkills(ctx: ToolContext, call: ToolCall, input: LoadInput): Promise<ToolSuccess<LoadResult>> {
  const session = sessionOf(ctx, call);
  const names = [...new Set(input.names)];
  const mode = input.mode ?? 'replace';
  const records = names.map((n) => resolveUsable(ctx, n));
  const canonical = records.map((r) => r.name);
  const kept = mode === 'add' ? session.active_skills.filter((a) => !canonical.includes(a.name)) : [];
  checkCap(ctx, kept.length + records.length, records.length, mode, session);
  const files = await Promise.all(records.map((r) => ctx.content.skillFile(r.name, r.location)));
  const docsFor = await resolveDocs(ctx, records.map((r) => ({ name: r.name, id: r.id, root_dir: r.rootDir })), input);
  const refs = await Promise.all(records.map((r, i) => resolveBodyReferences(ctx.content.files, files[i].parsed, r.rootDir)));
  const now = ctx.now().toISOString();
  const updated = await ctx.sessions.update(call.sessionId, 'load', (s) => {
    const previous = new Map(s.active_skills.map((a) => [a.name, a]));
    const fresh: ActiveSkill[] = records.map((r, i) => {
      const docs = docsFor[i];
      return {
        name: r.name,
        id: r.id,
        digest: files[i].digest,
        location: r.location,
        root_dir: r.rootDir,
        docs: docs ?? (mode === 'add' ? (previous.get(r.name)?.docs ?? []) : []),
        loaded_at: now,
        loaded_turn: s.turn,
        ...(call.callId ? { load_call_id: call.callId } : {}),
        ...(docs !== undefined && call.callId ? { docs_call_id: call.callId } : {}),
      };
    });
    if (mode === 'replace') {
      for (const a of s.active_skills) if (!canonical.includes(a.name)) s.lifecycle[a.name] = 'discovered';
      s.active_skills = fresh;
    } else {
      // Seed 000: add de-dupes by name and preserves order, so a reloaded skill keeps its place.
      s.active_skills = s.active_skills.map((a) => fresh.find((f) => f.name === a.name) ?? a);
      for (const f of fresh) if (!previous.has(f.name)) s.active_skills.push(f);
      // Checked again on the state the change applies to: a session stored elsewhere may apply it to a newer one.
      checkCap(ctx, s.active_skills.length, records.length, mode, s);
    }
    for (const r of records) {
      s.lifecycle[r.name] = 'loaded';
      s.last_used[r.name] = now;
    }
  });
  const all = await receipts(ctx, updated);
  for (const r of all) {
    const i = canonical.indexOf(r.name);
    if (i >= 0) r.files = refs[i];
  }
  return succeeded(
    'load',
    { loaded: canonical, active_skills: all, load_mode: updated.load_mode, note: MODE_NOTE[updated.load_mode] },
    records.map((r, i) => ({ name: r.name, digest: files[i].digest })),
  );
}

/** The cap on loaded skills: `total` loaded after a load of `requested` skills is refused over it. */
function checkCap(ctx: ToolContext, total: number, requested: number, mode: 'add' | 'replace', session: SessionState): void {
  const cap = ctx.limits.maxLoadedSkills;
  if (total <= cap) return;
  throw new ToolError(
    'too_many_skills',
    `Loading ${requested} skill(s) would make ${total} loaded; at most ${cap} may be loaded at once.`,
    mode === 'add'
      ? `Load fewer skills, or call unload for ones you no longer need (loaded: ${session.active_skills.map((a) => a.name).join(', ')}), then load again.`
      : `Load at most ${cap} skills: pick the ones the task needs most.`,
    { cap, requested: total },
  );
}

/** Checks requested docs against each skill's doc list; a doc must exist in at least one named skill. */
async function resolveDocs(ctx: ToolContext, skills: { name: string; id: string; root_dir: string }[], input: { docs?: string[]; include_all_docs?: boolean }): Promise<(DocsSelection | undefined)[]> {
  if (input.include_all_docs) return skills.map(() => '*');
  if (!input.docs) return skills.map(() => undefined);
  const lists = await Promise.all(skills.map((s) => effectiveDocFiles(ctx.content.files, ctx.source, s)));
  const wanted = input.docs.map((d) => d.replace(/^\.\//, ''));
  for (const d of wanted) {
    if (!lists.some((l) => l.some((f) => f.path === d))) {
      const available = lists.flatMap((l) => l.map((f) => f.path));
      throw new ToolError(
        'unknown_doc',
        `No doc '${d}' in ${skills.map((s) => `'${s.name}'`).join(', ')}.`,
        available.length ? `Use paths exactly as list_docs returns them, e.g. ${available.slice(0, 8).join(', ')}.` : 'This skill has no docs; load it without docs.',
        { available: available.slice(0, 50) },
      );
    }
  }
  return lists.map((l) => wanted.filter((d) => l.some((f) => f.path === d)));
}

/** `unload`: removes the named skills (or all); unknown names are reported, not an error. */
export async function unloadSkills(ctx: ToolContext, call: ToolCall, input: UnloadInput): Promise<ToolSuccess<UnloadResult>> {
  const session = sessionOf(ctx, call);
  const targets = input.all ? session.active_skills.map((a) => a.name) : (input.names ?? []).map((n) => session.active_skills.find((a) => a.name === n || a.id === n)?.name ?? n);
  const loaded = new Set(session.active_skills.map((a) => a.name));
  const unloaded = targets.filter((n) => loaded.has(n));
  const notLoaded = targets.filter((n) => !loaded.has(n));
  const touched = session.active_skills.filter((a) => unloaded.includes(a.name)).map((a) => ({ name: a.name, digest: a.digest }));
  const updated = await ctx.sessions.update(call.sessionId, 'unload', (s) => {
    if (!unloaded.length) return false;
    s.active_skills = s.active_skills.filter((a) => !unloaded.includes(a.name));
    for (const n of unloaded) s.lifecycle[n] = 'discovered';
  });
  return succeeded('unload', { unloaded, not_loaded: notLoaded, active_skills: await receipts(ctx, updated) }, touched);
}
