import type { Finding } from '../findings';
import type { FrontmatterField } from '../skillTypes';
import { rangeOfValue } from './fieldAccess';
import { rule, type RuleInfo } from './ruleInfo';

/**
 * Routing rules: whether the description lets a model decide when to activate the skill. Notes only
 * (info): a host loads the skill either way; the wording decides whether it is ever picked.
 */
export const ROUTING_RULES: readonly RuleInfo[] = [
  rule('description-no-trigger', 'info', 'info', 'The description does not say when to use the skill.',
    'A model picks a skill from its description alone. Say what the skill does and when to use it, e.g. "… Use when the user asks to …". Without a trigger the skill is picked by luck. "Useful for …", "Auto-activates on keywords …" and "Detects requests for …" count as triggers; a description written in a language with another script (Cyrillic, Han, …) is not judged, as the phrases known are English. A skill the model never picks (`disable-model-invocation: true`) is not reported. A trigger in `when_to_use` counts when every agent linted for reads it (`--host claude-code`, which lists it with the description); for the others the finding says the trigger is there only.'),
  rule('description-restates-name', 'info', 'info', 'The description only restates the skill name.',
    'A description that repeats the name gives the model nothing to route on. Say what the skill does, on which inputs, and when to use it.'),
  rule('description-person', 'info', 'info', 'The description is written in the first or second person.',
    'The description is injected into the system prompt, where "I", "we" or "you" are ambiguous (who is speaking?). Write in the third person: "Generates release notes. Use when …". Text in quotes (an example request) is not judged, nor a labelled list of requests (`Triggers: …`, `Keywords: …`, `Activates for …`) to the end of the description.'),
];

/**
 * A trigger: "when", "whenever", "triggers on", or a verb of use (use, invoke, call, activate, consult, load, run)
 * with the occasion after it, optionally through "it/this (skill, agent, tool…)" and an adverb: "Use when …", "You
 * MUST use this before …", "Use this agent to …", "Use immediately after …", "Always invoke for …", "Use via
 * /command", "Auto-activates on keywords …", "Dispatch for …"; the requests it answers named: "Detects requests for …";
 * or the moment: "… before making any success claims", "after manual testing passes"; "Invoked automatically by
 * /review", "Run manually with /estimate" (the command that runs it); "Use skill if …"; always: "ALWAYS
 * use `x` first", "the primary tool for all …"; a recurring moment: "after every code change", "before each release"
 * ("for every package" is the scope, not a moment).
 */
const TRIGGER = /\b(?:when|whenever|always use|(?:default|primary|go-to) (?:tool|skill|choice) for|trigger(?:s|ed)?|if the user|if asked|use[ds]? (?:(?:(?:it|this|me)(?: (?:skill|agent|tool|command|prompt|workflow))?|skill|agent|tool) )?(?:(?:immediately|proactively|automatically|only|always|also|first|right) )?(?:when|for|if|to|whenever|on|before|after|during|while|via|once|upon)|(?:invoke|call|activate|consult|load|run|dispatch)(?:e?[ds])? (?:(?:it|this|me)(?: (?:skill|agent|tool|command|prompt|workflow))? )?(?:(?:immediately|proactively|automatically|only|always|also|first|right) )?(?:when|whenever|if|for|before|after|during|while|via|once|upon)|(?:invoked|called|triggered|run) (?:(?:automatically|manually|directly) )?(?:by|from|with|via) \/[a-z][\w-]*|activate[ds]? on|detects? (?:(?:the )?user(?:'s)? )?requests? (?:for|to|about)|(?:before|after) (?:making|claiming|committing|merging|shipping|releasing|deploying|pushing|opening|finishing|completing|starting|writing|editing|changing)|after (?:[\w-]+ ){0,4}(?:passes|pass|completes|finishes|succeeds|fails|is done|are done|is merged|lands)|(?:after|before) (?:every|each|any) [\w-]+)\b/i;
/** "Useful for …", "helpful when …": says when, in other words. */
const USEFUL = /\b(?:useful|helpful|ideal) (?:for|when|if|whenever)\b/i;
/** Letters of scripts other than Latin: a description written in such a language is not read by these English rules. */
const OTHER_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Thai}]/gu;
/** At least this many such letters and the description is taken as written in that language. */
const OTHER_SCRIPT_MIN = 8;

/**
 * True when the description says when to use the skill as far as these rules can tell: a trigger phrase, or it is
 * written in a language other than English (the phrases are English; "Используй для …" says when, unread).
 */
function saysWhen(description: string): boolean {
  if (TRIGGER.test(description) || USEFUL.test(description)) return true;
  let other = 0;
  OTHER_SCRIPT.lastIndex = 0;
  while (OTHER_SCRIPT.exec(description)) if (++other >= OTHER_SCRIPT_MIN) return true;
  return false;
}

/** First-person words; `I` in `I/O` or `I-beam` is a letter, not a pronoun. */
const FIRST_PERSON = /(?<![\w/'’-])(?:I|I'm|I'll|I've|me|my|we|we're|we'll|our)(?![\w/'’-])/;
const SECOND_PERSON = /\b(?:you|your|you're|you'll)\b/i;
const QUOTED = /"[^"]*"|“[^”]*”|'[^'\n]{3,}'(?!\w)/g;
const STOP = new Set(['a', 'an', 'the', 'for', 'to', 'of', 'and', 'skill', 'this', 'tool', 'tools']);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * True when every word of the description (but a few small ones) is a word of the name. Only a short
 * description can be one (at most twice the name's length plus a little), so longer ones are not read.
 */
function restatesName(description: string, name: string): boolean {
  if (name === '' || description.length > name.length * 2 + 10) return false;
  const lowerName = name.toLowerCase();
  let seen = false;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(description); m; m = WORD.exec(description)) {
    const w = m[0].toLowerCase();
    if (STOP.has(w)) continue;
    if (!lowerName.split(/[^\p{L}\p{N}]+/u).includes(w)) return false;
    seen = true;
  }
  return seen;
}

/**
 * A labelled list of the user's own words ("Triggers: notify my phone, …", "TRIGGERS - …", "Keywords: …",
 * "Activates for …", "Auto-activates on keywords …"): what follows is example requests, as if quoted, to the end of
 * the description.
 */
const REQUEST_LIST = /\b(?:triggers?|trigger (?:phrases|words|keywords)|keywords)\s*(?::|\s[-—–])\s|\bactivates? (?:for|on)(?: keywords)?:?\s/i;

function person(description: string): 'first' | 'second' | undefined {
  const list = REQUEST_LIST.exec(description);
  const own = list ? description.slice(0, list.index) : description;
  const unquoted = own.includes('"') || own.includes('“') || own.includes("'") ? own.replace(QUOTED, ' ') : own;
  if (FIRST_PERSON.test(unquoted)) return 'first';
  if (SECOND_PERSON.test(unquoted)) return 'second';
  return undefined;
}

/** True when no routing rule has anything to say about this (non-empty) description. */
export function routingIsPlain(description: string, name: string): boolean {
  return saysWhen(description) && person(description) === undefined && !restatesName(description, name);
}

/**
 * Where a skill says when to use it outside `description`: a field (`when_to_use`) and the agents, of those linted
 * for, that read it. When all of them do (or none lets the model pick the skill: `disable-model-invocation: true`)
 * a description without a trigger is no fault; when only some do, the others see no trigger and the finding says so.
 */
export interface TriggerElsewhere {
  field: string;
  /** Labels of the agents linted for that read the field. */
  readers: readonly string[];
  /** True when every agent linted for reads it. */
  everywhere: boolean;
}

/** The routing rules for a non-empty description (`elsewhere`: see {@link TriggerElsewhere}). */
export function checkRouting(description: string, f: FrontmatterField, name: string, out: Finding[], elsewhere?: TriggerElsewhere): void {
  const range = rangeOfValue(f);
  if (restatesName(description, name)) {
    out.push({
      rule: 'description-restates-name',
      message: `\`description\` only restates the name '${name}'. Say what the skill does and when to use it, e.g. "… Use when the user asks to …".`,
      range,
      data: { field: 'description' },
    });
  } else if (!elsewhere?.everywhere && !saysWhen(description)) {
    out.push({
      rule: 'description-no-trigger',
      message: elsewhere
        ? `\`description\` does not say when to use the skill; the trigger is in \`${elsewhere.field}\`, which only ${elsewhere.readers.join(' and ')} read${elsewhere.readers.length === 1 ? 's' : ''}. Other agents see the description alone: add a short trigger to it too, such as "Use when the user asks to …".`
        : '`description` does not say when to use the skill. Add a trigger such as "Use when the user asks to …" so a model knows when to pick it.',
      range,
      data: { field: 'description' },
    });
  }
  const p = person(description);
  if (p) {
    out.push({
      rule: 'description-person',
      message: `\`description\` is written in the ${p} person ("${p === 'first' ? 'I/we/my' : 'you/your'}"); it is read inside the system prompt. Rewrite it in the third person, e.g. "Generates … Use when …".`,
      range,
      data: { field: 'description', person: p },
    });
  }
}
