// The one call path of a tool, for every front end (VS Code, the CLI, MCP): invoke the descriptor, then audit the
// call unless the tool wrote its own line (the runtime's and the catalog's tools audit inside, because they are also
// called without a descriptor). So a tool is audited the same whichever surface called it.
import { toolAuditEntries } from '../tools/toolAudit';
import type { ToolResult } from '../tools/toolResult';
import type { ToolCallContext, ToolDescriptor } from './toolDescriptor';

/** Runs one call of `tool` and audits it once. */
export async function callTool(tool: ToolDescriptor, ctx: ToolCallContext, input: unknown): Promise<ToolResult> {
  const started = new Date();
  const t0 = performance.now();
  const r = await tool.invoke(ctx, input ?? {});
  if (!tool.auditsItself) {
    const { audit } = await ctx.services.runtime();
    if (audit) {
      const outcome = r.ok ? 'ok' : `error:${r.error.code}`;
      const skills = (tool.skillsNamed?.((input ?? {}) as Record<string, unknown>) ?? []).map((name) => ({ name }));
      for (const e of toolAuditEntries({ started, durationMs: performance.now() - t0, session: ctx.sessionId, action: tool.id, input: input ?? {}, outcome, skills })) audit.append(e);
    }
  }
  return r;
}
