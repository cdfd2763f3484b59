import { ToolError } from '../tools/toolError';
import { effectiveDocFiles } from './effectiveFiles';
import { pickLoaded, resolveUsable, sessionOf, type ToolCall, type ToolContext } from './toolContext';
import { succeeded, type ToolSuccess } from '../tools/toolResult';
import type { ListDocsInput, SelectDocsInput } from './runtimeToolInputs';
import type { DocsSelection } from './runtimeTypes';

export interface ListDocsResult {
  skill: string;
  docs: { path: string; size_bytes: number; selected: boolean }[];
  loaded: boolean;
}

export interface SelectDocsResult {
  skill: string;
  /** `*` when every doc is selected. */
  selected: DocsSelection;
  note: string;
}

function isSelected(sel: DocsSelection | undefined, p: string): boolean {
  return sel === '*' || (sel?.includes(p) ?? false);
}

/** `list_docs`: the skill's Markdown and text files. Works for a skill that is not loaded yet. */
export async function listDocs(ctx: ToolContext, call: ToolCall, input: ListDocsInput): Promise<ToolSuccess<ListDocsResult>> {
  const session = sessionOf(ctx, call);
  const active = input.skill === undefined ? pickLoaded(session, undefined, 'list_docs') : session.active_skills.find((a) => a.name === input.skill || a.id === input.skill);
  const target = active ? { name: active.name, id: active.id, root_dir: active.root_dir, digest: active.digest } : (() => {
    const rec = resolveUsable(ctx, input.skill as string);
    return { name: rec.name, id: rec.id, root_dir: rec.rootDir, digest: rec.digest };
  })();
  const docs = await effectiveDocFiles(ctx.content.files, ctx.source, target);
  return succeeded('list_docs', { skill: target.name, loaded: !!active, docs: docs.map((d) => ({ ...d, selected: isSelected(active?.docs, d.path) })) }, [
    { name: target.name, digest: target.digest },
  ]);
}

/** `select_docs`: add to, replace or clear a loaded skill's docs selection (seed 004). */
export async function selectDocs(ctx: ToolContext, call: ToolCall, input: SelectDocsInput): Promise<ToolSuccess<SelectDocsResult>> {
  const active = pickLoaded(sessionOf(ctx, call), input.skill, 'select_docs');
  const mode = input.mode ?? 'add';
  let next: DocsSelection;
  if (mode === 'clear') next = [];
  else if (input.include_all_docs) next = '*';
  else {
    if (!input.docs?.length) {
      throw new ToolError('invalid_input', `select_docs with mode '${mode}' needs 'docs' or 'include_all_docs'.`, `Call list_docs for '${active.name}' and pass the paths you need, or use mode 'clear'.`);
    }
    const available = (await effectiveDocFiles(ctx.content.files, ctx.source, active)).map((d) => d.path);
    const wanted = input.docs.map((d) => d.replace(/^\.\//, ''));
    const unknown = wanted.filter((d) => !available.includes(d));
    if (unknown.length) {
      throw new ToolError(
        'unknown_doc',
        `Skill '${active.name}' has no doc ${unknown.map((u) => `'${u}'`).join(', ')}.`,
        available.length ? `Use paths exactly as list_docs returns them: ${available.slice(0, 10).join(', ')}${available.length > 10 ? ', ...' : ''}.` : 'This skill has no docs.',
        { available: available.slice(0, 50) },
      );
    }
    if (mode === 'replace' || active.docs !== '*') {
      const base = mode === 'replace' ? [] : (active.docs as string[]);
      next = [...new Set([...base, ...wanted])];
    } else next = '*';
  }
  await ctx.sessions.update(call.sessionId, 'select-docs', (s) => {
    const a = s.active_skills.find((x) => x.name === active.name);
    if (!a) return false;
    a.docs = next;
    if (call.callId) a.docs_call_id = call.callId;
    else delete a.docs_call_id;
  });
  const count = next === '*' ? 'every doc' : `${next.length} doc(s)`;
  return succeeded('select_docs', { skill: active.name, selected: next, note: `${count} of '${active.name}' will be in your context from the next model call.` }, [
    { name: active.name, digest: active.digest },
  ]);
}
