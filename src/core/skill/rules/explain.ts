import { getRule } from './index';

/** The documentation of one rule, as the language server's hover and `agent-skills explain` show it (Markdown). */
export function explainRule(id: string): string | undefined {
  const r = getRule(id);
  if (!r) return undefined;
  const lines = [`**${r.id}**: ${r.description}`, '', r.doc, '', `Default level: strict \`${r.strict}\`, lenient \`${r.lenient}\`.`];
  if (r.fix) lines.push(`Fix: ${r.fix.title}${r.fix.safe ? ' (applied by `agent-skills validate --fix`)' : ' (quick fix in the editor)'}.`);
  if (r.options) for (const [k, o] of Object.entries(r.options)) lines.push(`Option \`${k}\` (default ${o.default}): ${o.description}`);
  return lines.join('\n');
}

