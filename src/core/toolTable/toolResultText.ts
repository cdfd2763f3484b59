import { findTool } from './toolTable';
import type { ToolResult } from '../tools/toolResult';

/**
 * The text a model reads for a tool result, on every surface. A success is the tool's own model view when
 * it has one (a run without its log-only fields, list_skills' `<available_skills>` block), else the result
 * as compact JSON. A refusal is `Error (<code>): <message>`, then `What to do: <hint>` and any details: the
 * words models have been answering since the first release. The full structured result stays with the host.
 */
export function toolResultText(r: ToolResult): string {
  if (!r.ok) {
    const { code, message, hint, details } = r.error;
    const facts = details && Object.keys(details).length ? `\nDetails: ${JSON.stringify(details)}` : '';
    return `Error (${code}): ${message}\nWhat to do: ${hint}${facts}`;
  }
  const view = findTool(r.tool)?.modelText;
  return view ? view(r.result) : JSON.stringify(r.result);
}
