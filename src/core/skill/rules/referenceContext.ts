import type { BodyReference } from '../bodyReferences';
import { inBlocks } from '../markdownBlocks';
import type { TextIndex } from '../textIndex';

/**
 * Whether a path the body mentions is a file the skill means to ship, or an illustration: skill-writing
 * guides and report templates write paths that belong to the reader's project or to a made-up skill. A
 * missing file is reported only when it is meant (reference-missing); these are the kinds that are not.
 */

/**
 * "(e.g. `./scripts/deploy.sh`)", "for example scripts/x.py", "such as …", and the same in Chinese and Japanese
 * ("（如 `wiki/x.md`）", "例如/Users/…", "例えば …"; 如 alone, not 如果 "if" or 如何 "how"; 举个例子/举例 "for
 * example", 以 … 为例 "taking … as the example", 假设/假如 "suppose"): the path is one example among others.
 */
export const EXAMPLE_LEAD = /(?:\be\.\s?g\.|\beg\.|\bfor (?:example|instance)\b|\bsuch as\b|例如|比如|譬如|举个例子|举例|为例|假设|假如|例えば|たとえば|(?<![例比譬])如(?![果何此今同下上]))[^.;!?\n。；！？]*$/i;

/** "（根据实际路径修改）" ("change it to your actual path"), "(adjust to your setup)" right after a path: a value to replace. */
export const REPLACE_TRAIL = /^[^\n]{0,12}?[（(]\s*(?:请?根据实际|请?按实际|请?修改|请?替换|改为|change (?:it |this )?to|adjust|replace (?:it|this|with))/i;

/**
 * "Create `scripts/validate.py`", "save the chart to assets/chart.png", `> references/out.md`, `--output assets/x.json`:
 * a file the skill or the user makes, not one the skill ships.
 */
const MADE_LEAD = /(?:\b(?:create[sd]?|creating|generate[sd]?|generating|writes?|writing|written|save[sd]?|saving|output(?:s|ted)?|produce[sd]?|producing|export(?:s|ed)?|touch|mkdir|new file)\b[^.;!?\n|]*|(?:>>?|--out(?:put)?(?:[-_]\w+)?[=\s]|\s-o\s)\s*["'`]?)$/i;

/** Names that stand for any file: `scripts/your_script.py`, `references/example.md`, `assets/foo.png`. */
const PLACEHOLDER_STEM = /^(?:your|my)(?:[-_]|[A-Z])|^(?:example|sample|foo|bar|baz|qux|xxx+|placeholder|filename|file-?name|something|whatever|path|name|my-?file)(?:[-_.]|$)/i;

/** A name pattern with a date in it (`drafts/YYYY-MM-DD-slug.md`, `log-YYYYMMDD.txt`): a file made each day, not shipped. */
const DATED_NAME = /(?<![A-Za-z])(?:YYYY|yyyy)(?:[-_.]?(?:MM|mm))?|(?<![A-Za-z])(?:MM|mm)[-_.]?(?:DD|dd)(?![A-Za-z])/;

/** Right after a path: "if it exists", "(if present)", "when there is one": a file the skill does not count on. */
const OPTIONAL_TRAIL = /^[`'"*)\]]*,?\s*\(?(?:if (?:it |one )?(?:exists|is there|is present|present|any)|when (?:it )?(?:exists|present)|if available)\b/i;

/** Before a path on its line: "and, **if it exists**, the tail of …". */
const OPTIONAL_LEAD = /\b(?:if (?:it |one )?(?:exists|is present|present)|when present)\b[*_]*,?[^.;!?\n]{0,40}$/i;

/**
 * The last possessive before a path in its sentence: "`other-skill`'s `references/x.md`", "the user's notes/x.md",
 * "the deploy plugin's section and its scripts/x.sh". Group 1 or 2 is the owner.
 */
const POSSESSIVE = /(?:`([^`\n]{1,60})`|([\p{L}\p{N}][\p{L}\p{N}._-]{0,60}))['’]s\b(?![^.;!?\n]*['’]s\b)[^.;!?\n]*$/u;
/** Words whose `'s` is no owner ("it's", "that's", "let's") or whose owner is the skill itself ("this skill's"). */
const NO_OWNER = new Set(['it', 'that', 'there', 'here', 'what', 'where', 'who', 'let', 'he', 'she', 'one', 'this', 'skill', 'today', 'now']);

/**
 * True when the text before a path gives it another owner than this skill: "`notes-kit`'s `references/x.md`",
 * "the user's `config/x.yaml`", "the Deploy plugin's scripts/up.sh". That file is in the other skill, plugin or
 * project, not one this skill ships. "This skill's …", "the skill's …" and the skill's own name (`ownNames`) are its own.
 */
function ownedElsewhere(lead: string, ownNames: readonly string[]): boolean {
  if (!lead.includes("'s") && !lead.includes('’s')) return false;
  const m = POSSESSIVE.exec(lead);
  if (!m) return false;
  const owner = (m[1] ?? m[2]).toLowerCase();
  return !NO_OWNER.has(owner) && !ownNames.some((n) => n.toLowerCase() === owner);
}

/** How far back on its line the example lead-in is looked for. */
const LEAD_WINDOW = 80;

/** The fenced code blocks that are an example SKILL.md (they open with a `---` frontmatter holding `name:`), in order. */
export function exampleSkillBlocks(text: string, blocks: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [start, end] of blocks) {
    const firstBreak = text.indexOf('\n', start);
    if (firstBreak < 0 || firstBreak >= end) continue;
    const head = text.slice(firstBreak + 1, Math.min(end, firstBreak + 1 + 400));
    if (/^\s*---\r?\n(?:[^\n]*\n){0,4}?\s*name:\s*\S/.test(head)) out.push([start, end]);
  }
  return out;
}

/**
 * True when `ref` reads as an illustration rather than a file the skill ships: written after "e.g."/"for
 * example" on its line, or as a file to be made ("create", "save to", `> file`, `--output file`), followed by `:<line>` (a `file:line` location in a report format), inside an example
 * SKILL.md, named like a placeholder, given another owner (`other`'s `x.md`, see ownedElsewhere), or a bare word pair in prose (`and/or`-like, no file extension). `exampleBlocks`
 * gives {@link exampleSkillBlocks}, asked only when the lead and the location leave the question open.
 */
export function isIllustrativePath(text: string, ref: BodyReference, exampleBlocks: () => readonly [number, number][], ownNames: readonly string[] = []): boolean {
  // The lead is looked for in the window only: a search back for the line's start would cross a one-line body for each reference.
  const window = text.slice(Math.max(0, ref.start - LEAD_WINDOW), ref.start);
  const lead = window.slice(window.lastIndexOf('\n') + 1);
  if (EXAMPLE_LEAD.test(lead) || MADE_LEAD.test(lead) || ownedElsewhere(lead, ownNames)) return true;
  if (/^:\d/.test(text.slice(ref.end, ref.end + 2))) return true;
  if (inBlocks(exampleBlocks(), ref.start)) return true;
  const last = ref.path.slice(ref.path.lastIndexOf('/') + 1);
  if (PLACEHOLDER_STEM.test(last) || DATED_NAME.test(ref.path)) return true;
  // "…the tail of `research/run.log` if it exists": a file that may be there, never one the skill ships.
  if (OPTIONAL_TRAIL.test(text.slice(ref.end, ref.end + 40)) || OPTIONAL_LEAD.test(lead)) return true;
  return ref.kind === 'text' && !last.includes('.');
}

/** Words that mark a line as a counter-example: what not to do, or what an attacker does. */
const COUNTER_EXAMPLE = /\b(?:never|don'?t|do not|must not|should not|avoid|bad|wrong|insecure|vulnerable|unsafe|leaks?|exfiltrat\w*|attack(?:er|s)?|anti-?pattern)\b|❌|✗|⚠/i;

/**
 * Whether the line of an offset, or one of the two lines before it, says it shows what not to do ("# MUST NOT", "❌
 * Bad", "exfiltration"). Each line is read once per text: read again for each path of a one-line text, it was
 * quadratic (oneLinePaths.redteam.test.ts). The expression matches within a line, so three lines read apart answer as
 * the three read together.
 */
export function counterExampleLines(lines: TextIndex): (at: number) => boolean {
  const said = new Map<number, boolean>();
  const says = (line: number): boolean => {
    let v = said.get(line);
    if (v === undefined) said.set(line, (v = COUNTER_EXAMPLE.test(lines.lineText(line))));
    return v;
  };
  return (at) => {
    const line = lines.positionAt(at).line;
    return says(line) || (line > 0 && says(line - 1)) || (line > 1 && says(line - 2));
  };
}
