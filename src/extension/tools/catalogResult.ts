// The catalog tools' results as text for the model: the result as compact JSON, or the error with its facts.
// Failures start with "Error (" like the runtime tools', which the @skills loop reads as an error result.
import type { ToolResult } from '../../core/catalog/toolResult';

/** Text the model reads for a runSkill / updateSkill result. */
export function catalogResultText<T extends object>(r: ToolResult<T>, extraHint = ''): string {
  if (r.ok) {
    const { ok: _ok, ...rest } = r as { ok: true } & T;
    void _ok;
    return JSON.stringify(rest);
  }
  const details = r.error.details && Object.keys(r.error.details).length ? `\nDetails: ${JSON.stringify(r.error.details)}` : '';
  return `Error (${r.error.code}): ${r.error.message}${extraHint}${details}`;
}
