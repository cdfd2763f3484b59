import type { Severity, SkillDiagnostic } from './skillTypes';

/**
 * How much one file's findings may say. A hostile SKILL.md (`[a](` repeated) once gave 1,000 findings that each
 * quoted the rest of the file: one 76 MB `publishDiagnostics` from a 40 KB file, and "Invalid string length" in
 * `validate` at 800 KB. Findings quote at most an {@link excerpt}; these limits bound what is left whatever a
 * rule does.
 */
export const DIAGNOSTIC_LIMITS = Object.freeze({
  /**
   * Findings kept per file; the rest are counted in one final "and N more" finding. Rules that can fire once per
   * character stop searching past this many, so that count is a lower bound ("at least").
   */
  maxPerFile: 200,
  /** Characters of one message; a longer one is cut (rules quote excerpts, so only a bug reaches this). */
  maxMessageChars: 1000,
  /** Bytes of one finding's `data` as JSON; larger data (a fix with thousands of edits) is dropped. */
  maxDataBytes: 32 * 1024,
  /** Estimated bytes (messages and data) of one file's findings together. */
  maxBytesPerFile: 256 * 1024,
  /** Characters of text a message quotes. */
  excerptChars: 80,
});

/** Rule id of the finding that stands for the findings left out. */
export const FINDINGS_CAPPED_RULE = 'findings-capped';

/** The warning that only the first `checked` characters of a longer SKILL.md (of `bytes`) were validated, at `range`. */
export function partlyChecked(rule: string, bytes: number, checked: number, range: SkillDiagnostic['range']): SkillDiagnostic {
  return {
    rule,
    severity: 'warning',
    message: `SKILL.md is ${bytes} bytes, more than ${checked} characters; only the first ${checked} were checked. Move long content into references/ files.`,
    range,
  };
}

/**
 * `text` as a message may quote it: whole when short, else its first characters, an ellipsis and the length
 * (never cutting a surrogate pair).
 */
export function excerpt(text: string, max: number = DIAGNOSTIC_LIMITS.excerptChars): string {
  if (text.length <= max) return text;
  let cut = max;
  if (isHigh(text.charCodeAt(cut - 1))) cut--;
  return `${text.slice(0, cut)}… (${text.length} characters)`;
}

/**
 * A message cut to about `max` characters in its middle: the start says what is wrong and the end what to do,
 * and two findings that differ at either end stay distinct.
 */
function middleCut(message: string, max: number): string {
  let to = Math.floor(max * 0.6);
  if (isHigh(message.charCodeAt(to - 1))) to--;
  let from = message.length - Math.floor(max * 0.3);
  if (isHigh(message.charCodeAt(from - 1))) from++;
  return `${message.slice(0, to)}… [${from - to} characters cut] …${message.slice(from)}`;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/**
 * The findings of each file (`file`, SKILL.md when absent) bounded by {@link DIAGNOSTIC_LIMITS}: messages cut,
 * oversized data dropped, and past the count or byte limit one `findings-capped` finding per file that says how
 * many more there are, with the highest severity among them (so an error is never hidden as a note). Errors are
 * kept before warnings, warnings before notes; the order of what is kept is unchanged.
 */
export function capDiagnostics(list: readonly SkillDiagnostic[], limits = DIAGNOSTIC_LIMITS): SkillDiagnostic[] {
  if (list.length <= limits.maxPerFile && list.every((d) => d.message.length <= limits.maxMessageChars && !d.data && d.rule !== FINDINGS_CAPPED_RULE)) return [...list];
  const byFile = new Map<string | undefined, SkillDiagnostic[]>();
  for (const d of list) {
    const key = d.file === 'SKILL.md' ? undefined : d.file;
    const group = byFile.get(key);
    if (group) group.push(d);
    else byFile.set(key, [d]);
  }
  const out: SkillDiagnostic[] = [];
  for (const group of byFile.values()) out.push(...capFile(group, limits));
  return out;
}

function capFile(all: readonly SkillDiagnostic[], limits: typeof DIAGNOSTIC_LIMITS): SkillDiagnostic[] {
  // A list capped before (the server caps the core's findings again with its own) carries its count on.
  const group = all.filter((d) => d.rule !== FINDINGS_CAPPED_RULE);
  let dropped = 0;
  let worst: Severity = 'hint';
  for (const d of all) {
    if (d.rule !== FINDINGS_CAPPED_RULE) continue;
    dropped += typeof d.data?.more === 'number' ? d.data.more : 0;
    if (RANK[d.severity] < RANK[worst]) worst = d.severity;
  }
  const order = group.map((_, i) => i).sort((a, b) => RANK[group[a].severity] - RANK[group[b].severity] || a - b);
  // Room for the "and N more" finding when not everything fits.
  const room = group.length > limits.maxPerFile || dropped > 0 ? limits.maxPerFile - 1 : limits.maxPerFile;
  const kept = new Map<number, SkillDiagnostic>();
  let bytes = 0;
  for (const i of order) {
    const d = kept.size < room ? bounded1(group[i], limits) : undefined;
    const size = d ? d.message.length + (d.data ? JSON.stringify(d.data).length : 0) + 200 : 0;
    if (!d || bytes + size > limits.maxBytesPerFile) {
      dropped++;
      if (RANK[group[i].severity] < RANK[worst]) worst = group[i].severity;
      continue;
    }
    kept.set(i, d);
    bytes += size;
  }
  const out: SkillDiagnostic[] = [];
  for (let i = 0; i < group.length; i++) {
    const d = kept.get(i);
    if (d) out.push(d);
  }
  if (dropped === 0) return out;
  const at = (out[out.length - 1] ?? all[0]).range.start;
  out.push({
    rule: FINDINGS_CAPPED_RULE,
    severity: worst,
    message: `…and at least ${dropped} more finding${dropped === 1 ? '' : 's'} in this file, not shown (at most ${limits.maxPerFile} findings and ${limits.maxBytesPerFile / 1024} KB of messages are reported per file). Fix the ones shown and validate again.`,
    range: { start: at, end: at },
    ...(all[0].file !== undefined ? { file: all[0].file } : {}),
    data: { more: dropped },
  });
  return out;
}

/** One finding with its message cut to the limit and its data dropped when too large. */
function bounded1(d: SkillDiagnostic, limits: typeof DIAGNOSTIC_LIMITS): SkillDiagnostic {
  const long = d.message.length > limits.maxMessageChars;
  const bigData = d.data !== undefined && JSON.stringify(d.data).length > limits.maxDataBytes;
  if (!long && !bigData) return d;
  const out: SkillDiagnostic = { ...d };
  if (long) out.message = middleCut(d.message, limits.maxMessageChars);
  if (bigData) delete out.data;
  return out;
}
