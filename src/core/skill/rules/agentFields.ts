import { allowedToolBase, isToolNameEntry, parseAllowedTools } from '../allowedTools';
import { editDistance } from '../similarPaths';
import { argumentsReachTheModel, AGENT_PROFILES, agentsGrantingTool, type AgentProfile } from '../agentProfiles';
import type { Finding } from '../findings';
import type { FrontmatterField, ParsedSkillFile } from '../skillTypes';
import { booleanValue, firstField, rangeOfValue } from './fieldAccess';
import { rule, type RuleInfo } from './ruleInfo';
import { includesVia } from '../textSearch';

/**
 * Rules about the values of the fields agents define (Claude Code, VS Code). A wrong value there makes
 * the agent ignore the field or do something else than the author meant, so most are warnings.
 */
export const AGENT_FIELD_RULES: readonly RuleInfo[] = [
  rule('host-field-value', 'warning', 'warning', 'A host-defined field has a value the host does not accept (`context`, `agent`, `model`, `effort`, `shell`).',
    'Claude Code accepts `context: fork` only, `effort` of `low`, `medium`, `high` or `max`, `shell` of `bash` or `powershell`, `model` as an alias (`sonnet`, `opus`, `haiku`, `inherit`) or a `claude-…` model id, and uses `agent` only together with `context: fork`. Other values are ignored, so the skill runs differently from what its author meant.'),
  rule('boolean-quoted', 'warning', 'warning', 'A boolean field is written as a quoted string (`"false"`).',
    '`user-invocable: "false"` is the string "false", not the boolean: hosts that test the value\'s truth read it as set. Write `true` or `false` without quotes.',
    { fix: { title: 'Remove the quotes', safe: true } }),
  rule('skill-unreachable', 'warning', 'warning', 'No one can invoke the skill: `user-invocable: false` and `disable-model-invocation: true`.',
    'With both, the skill is hidden from the slash-command menu and the model may not activate it. Remove one of the two fields.'),
  rule('argument-hint-mismatch', 'info', 'info', '`argument-hint` is set but the body never uses `$ARGUMENTS`, or the body uses arguments without a hint.',
    'Claude Code and VS Code substitute `$ARGUMENTS` (or named `arguments`) into the body when the skill is invoked with text after its slash command; `argument-hint` shows what to type. Use both or neither.'),
  rule('compatibility-empty', 'warning', 'warning', '`compatibility` is present but empty.',
    'An empty `compatibility` says nothing and some loaders reject it. Describe the environment the skill needs (e.g. `Requires git and network access`) or remove the field.'),
  rule('allowed-tools-unknown', 'info', 'info', '`allowed-tools` names a tool no common host defines.',
    'Hosts grant only the tools they know; a misspelt name (`Bash` vs `bash`) grants nothing and the skill stops to ask. Known tools: Bash, Edit, Glob, Grep, LS, MultiEdit, NotebookEdit, Read, Task, TodoWrite, WebFetch, WebSearch, Write, and MCP tools as `mcp__server__tool`.'),
  rule('allowed-tools-unscoped-bash', 'info', 'info', '`allowed-tools` pre-approves `Bash` with no command pattern.',
    'A bare `Bash` lets the skill run any shell command without asking. Scope it to the commands the skill needs, e.g. `Bash(git status:*) Bash(npm test:*)`.'),
];

const MODEL_ALIASES = new Set(['sonnet', 'opus', 'haiku', 'inherit', 'default', 'opusplan', 'sonnet[1m]', 'opus[1m]']);
const EFFORTS = ['low', 'medium', 'high', 'max'];
const SHELLS = ['bash', 'powershell'];
const BOOLEAN_FIELDS = ['user-invocable', 'user-invokable', 'disable-model-invocation'];
/**
 * `$ARGUMENTS` (or `$ARGUMENTS[0]`, `${ARGUMENTS}`) at the offset it is tried at (sticky); bare `$0`, `$1` are left out:
 * prose prices ("$5") would pass for them.
 */
const ARGUMENT_AT = /\$\{?ARGUMENTS\b/y;

/**
 * True when the body uses `$ARGUMENTS`: tried at each `$` only (one of the rarest characters of a SKILL.md, five times
 * rarer than the `G` a search for the word would go through), so a long body is searched once, not scanned by the
 * expression from every offset.
 */
function usesArgumentsVariable(body: string): boolean {
  for (let at = body.indexOf('$'); at >= 0; at = body.indexOf('$', at + 1)) {
    ARGUMENT_AT.lastIndex = at;
    if (ARGUMENT_AT.test(body)) return true;
  }
  return false;
}

/**
 * True when no rule of this module can speak: no field beyond name, description and license, and no `$ARGUMENTS` in the body.
 * `quiet`: the text is quiet (see quietText), so it has no `$` and the body need not be searched.
 */
export function agentFieldsArePlain(fields: readonly FrontmatterField[], body: string, quiet = false): boolean {
  for (const f of fields) if (f.key !== 'name' && f.key !== 'description' && f.key !== 'license') return false;
  return quiet || !usesArgumentsVariable(body);
}

/** The agent-field rules (rule ids `host-…`, the public word) of one SKILL.md (they also look at the body, for `$ARGUMENTS`). */
export function checkAgentFields(parsed: ParsedSkillFile, out: Finding[], agents: readonly AgentProfile[] = AGENT_PROFILES): void {
  const fields = parsed.fields;
  const props = parsed.properties;
  checkEnum(firstField(fields, 'context'), ['fork'], out);
  checkEnum(firstField(fields, 'effort'), EFFORTS, out);
  checkEnum(firstField(fields, 'shell'), SHELLS, out);
  const model = firstField(fields, 'model');
  if (model && typeof props.model === 'string' && model.kind === 'scalar') {
    const m = props.model.trim();
    if (m !== '' && !MODEL_ALIASES.has(m) && !/^claude-[a-z0-9.-]+(?:\[1m\])?$/.test(m)) {
      out.push({
        rule: 'host-field-value',
        message: `\`model: ${m}\` is neither a model alias (sonnet, opus, haiku, inherit) nor a \`claude-…\` model id; Claude Code will not switch to it. Use an alias or a full model id.`,
        range: rangeOfValue(model),
        data: { field: 'model', allowed: [...MODEL_ALIASES] },
      });
    }
  }
  const agent = firstField(fields, 'agent');
  if (agent && String(props.context ?? '').trim() !== 'fork') {
    out.push({
      rule: 'host-field-value',
      message: '`agent` is used only with `context: fork`; without it the skill runs in the main conversation and `agent` is ignored. Add `context: fork` or remove `agent`.',
      range: agent.keyRange,
      data: { field: 'agent' },
    });
  }
  for (const key of BOOLEAN_FIELDS) {
    const f = firstField(fields, key);
    const b = booleanValue(f);
    if (f && b?.quoted) {
      const word = b.value ? 'true' : 'false';
      out.push({
        rule: 'boolean-quoted',
        message: `\`${key}: "${String(f.value)}"\` is a quoted string, not a boolean; hosts that test its truth read any non-empty string as true. Write \`${key}: ${word}\` without quotes.`,
        range: f.valueRange,
        data: { field: key, fix: { title: `Unquote ${key} (${word})`, edits: [{ range: f.valueRange, newText: word }] } },
      });
    }
  }
  const userInvocable = booleanValue(firstField(fields, 'user-invocable') ?? firstField(fields, 'user-invokable'));
  const noModel = booleanValue(firstField(fields, 'disable-model-invocation'));
  const dmi = firstField(fields, 'disable-model-invocation');
  if (userInvocable?.value === false && noModel?.value === true && dmi) {
    out.push({
      rule: 'skill-unreachable',
      message: 'With `user-invocable: false` and `disable-model-invocation: true` neither the user nor the model can invoke this skill. Remove one of the two fields.',
      range: dmi.keyRange,
      data: { field: 'disable-model-invocation' },
    });
  }
  const hint = firstField(fields, 'argument-hint');
  const usesArgs = usesArgumentsVariable(parsed.body) || namedArgumentUsed(props.arguments, parsed.body);
  // Hosts that append what the user typed when the body has no placeholder (Claude Code, VS Code) make a hint
  // without `$ARGUMENTS` work; only an agent that drops the text makes it a problem.
  if (hint && !usesArgs && !argumentsReachTheModel(agents)) {
    out.push({
      rule: 'argument-hint-mismatch',
      message: '`argument-hint` is set but the body never uses `$ARGUMENTS`, so what the user types after the slash command is not placed anywhere. Use `$ARGUMENTS` in the body or remove the hint.',
      range: hint.keyRange,
      data: { field: 'argument-hint' },
    });
  } else if (!hint && usesArgs && parsed.frontmatter) {
    out.push({
      rule: 'argument-hint-mismatch',
      message: 'The body uses `$ARGUMENTS` but there is no `argument-hint`, so users are not told what to type after the slash command. Add e.g. `argument-hint: [file]`.',
      range: { start: { line: parsed.frontmatter.openLine, character: 0 }, end: { line: parsed.frontmatter.openLine, character: 3 } },
      data: { field: 'argument-hint' },
    });
  }
  const compat = firstField(fields, 'compatibility');
  if (compat && typeof props.compatibility === 'string' && props.compatibility.trim() === '' && compat.kind !== 'empty') {
    out.push({
      rule: 'compatibility-empty',
      message: '`compatibility` is empty. Describe what the skill needs (e.g. `Requires git and network access`) or remove the field.',
      range: rangeOfValue(compat),
      data: { field: 'compatibility' },
    });
  }
  const tools = firstField(fields, 'allowed-tools');
  const entries = tools ? parseAllowedTools(props['allowed-tools']) : undefined;
  if (tools && entries && (typeof props['allowed-tools'] === 'string' || Array.isArray(props['allowed-tools']))) {
    const granting = agents.filter((h) => h.tools.length > 0 || h.toolForms.length > 0);
    const unknown = granting.length === 0 ? [] : entries.map(allowedToolBase).filter((b) => b !== '' && isToolNameEntry(b) && agentsGrantingTool(b, granting).length === 0);
    if (unknown.length) {
      const close = unknown.map((u) => closeTool(u, granting)).filter((c): c is string => c !== undefined);
      const who = granting.length === 1 ? `${granting[0].label} does not define` : 'no host defines';
      out.push({
        rule: 'allowed-tools-unknown',
        message: `\`allowed-tools\` names ${unknown.map((u) => `'${u}'`).join(', ')}, which ${who}; a misspelt tool grants nothing.${close.length ? ` Did you mean ${close.map((c) => `\`${c}\``).join(', ')}?` : ' Check the spelling (tool names are case-sensitive; MCP tools are written `mcp__server__tool`).'}`,
        range: rangeOfValue(tools),
        data: { field: 'allowed-tools', unknown },
      });
    }
    if (entries.includes('Bash')) {
      out.push({
        rule: 'allowed-tools-unscoped-bash',
        message: '`allowed-tools` pre-approves `Bash` with no pattern, so the skill may run any shell command without asking. Scope it, e.g. `Bash(git status:*)`.',
        range: rangeOfValue(tools),
        data: { field: 'allowed-tools' },
      });
    }
  }
}

/** The one tool of `agents` whose name differs from `name` by case, one edit or two swapped letters, if any. */
function closeTool(name: string, agents: readonly AgentProfile[]): string | undefined {
  const all = [...new Set(agents.flatMap((h) => h.tools))];
  const sorted = (s: string) => [...s.toLowerCase()].sort().join('');
  const near = all.filter((t) => t.toLowerCase() === name.toLowerCase() || editDistance(t, name, 1) <= 1 || (t.length === name.length && sorted(t) === sorted(name) && editDistance(t, name, 2) <= 2));
  return near.length === 1 ? near[0] : undefined;
}

function namedArgumentUsed(args: unknown, body: string): boolean {
  const names = Array.isArray(args) ? args.map(String) : typeof args === 'string' ? args.split(/[\s,]+/) : [];
  return names.some((n) => n !== '' && includesVia(body, `$${n}`, 0));
}

function checkEnum(f: FrontmatterField | undefined, allowed: readonly string[], out: Finding[]): void {
  if (!f || f.kind !== 'scalar' || typeof f.value !== 'string') return;
  const v = f.value.trim();
  if (allowed.includes(v)) return;
  const close = allowed.find((a) => v.startsWith(a) || a.startsWith(v));
  out.push({
    rule: 'host-field-value',
    message: `\`${f.key}: ${v}\` is not a value hosts accept (${allowed.map((a) => `\`${a}\``).join(', ')}), so the field is ignored.${close ? ` Did you mean \`${close}\`?` : ''}`,
    range: rangeOfValue(f),
    data: { field: f.key, allowed, ...(close ? { fix: { title: `Change ${f.key} to '${close}'`, edits: [{ range: rangeOfValue(f), newText: close }] } } : {}) },
  });
}
