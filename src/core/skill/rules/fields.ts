import { isToolNameEntry, parseAllowedTools } from '../allowedTools';
import { getField, type FieldValueType } from '../fieldCatalog';
import { AGENT_PROFILES, agentsDefiningField, type AgentProfile } from '../agentProfiles';
import { codePointLength } from '../codePoints';
import type { Finding } from '../findings';
import type { FrontmatterField } from '../skillTypes';
import { firstField, rangeOfValue } from './fieldAccess';
import { rule, type RuleInfo } from './ruleInfo';

export const COMPATIBILITY_MAX = 500;

/** Rules about which fields a SKILL.md has and the shape of their values. */
export const FIELD_RULES: readonly RuleInfo[] = [
  rule('field-nonstandard', 'error', 'info', 'A field some hosts define but the Agent Skills specification does not.',
    'Fields such as `argument-hint`, `user-invocable`, `disable-model-invocation` (VS Code, Claude Code) or `context`, `model`, `hooks` (Claude Code) work in the hosts that define them and are ignored elsewhere. The specification allows only `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools`; move other data under `metadata` for portability.',
    { fix: { title: 'Move the field under `metadata`', safe: false } }),
  rule('field-unknown', 'error', 'warning', 'A field no known host defines.',
    'Unknown fields are ignored by hosts, and the reference rejects them. Check the spelling, or move the data under `metadata`.',
    { fix: { title: 'Move the field under `metadata`', safe: false } }),
  rule('field-type', 'warning', 'warning', 'A field has a value of the wrong type (e.g. a list where a string belongs).',
    'Hosts ignore or misread a field of the wrong type, e.g. `license` must be a string and `user-invocable` must be `true` or `false`.'),
  rule('compatibility-not-string', 'error', 'warning', '`compatibility` is not a string.',
    '`compatibility` is one string of at most 500 characters describing environment requirements, e.g. `Requires git and network access`.'),
  rule('compatibility-too-long', 'error', 'warning', '`compatibility` is longer than 500 characters.',
    'Keep `compatibility` to at most 500 characters; move details into the body.'),
  rule('allowed-tools-invalid', 'warning', 'warning', '`allowed-tools` is not a tool string or a list of tool names.',
    '`allowed-tools` is a space-separated string (`Bash(git:*) Read`), a comma-separated string (`Read, Grep`) or a YAML list of tool names.'),
  rule('metadata-invalid', 'warning', 'warning', '`metadata` is not a mapping of string keys to string values.',
    '`metadata` maps string keys to string values, e.g. `author: example-org` and `version: "1.0"`. Nested mappings and lists are not portable.'),
];

/**
 * field-nonstandard / field-unknown for one key. Linted for one host (`hosts` of one), a field that host
 * defines is its own and says nothing; for any host (all of them), a host field is not portable.
 */
export function checkFieldKey(f: FrontmatterField, out: Finding[], agents: readonly AgentProfile[] = AGENT_PROFILES): void {
  const info = getField(f.key);
  if (info?.standard) return;
  if (info && agents.length === 1 && agentsDefiningField(f.key, agents).length === 1) return;
  if (info) {
    const only = agents.length === 1 ? agents[0] : undefined;
    out.push({
      rule: 'field-nonstandard',
      message: only
        ? `\`${f.key}\` is defined by ${info.hosts.join(' and ')}, not by ${only.label}, which ignores it. Remove it, move it under \`metadata\`, or lint for the host that reads it (--host).`
        : `\`${f.key}\` is defined by ${info.hosts.join(' and ')} but not by the Agent Skills specification; other hosts ignore it and the reference validator rejects it. For portability move it under \`metadata\` or remove it.`,
      range: f.keyRange,
      data: { field: f.key, hosts: info.hosts },
    });
  } else {
    out.push({
      rule: 'field-unknown',
      message: `Unknown frontmatter field \`${f.key}\`. The specification allows only name, description, license, compatibility, metadata and allowed-tools; check the spelling or move it under \`metadata\`.`,
      range: f.keyRange,
      data: { field: f.key },
    });
  }
}

export function checkCompatibility(compat: FrontmatterField, v: unknown, out: Finding[]): void {
  if (typeof v !== 'string') {
    out.push({
      rule: 'compatibility-not-string',
      message: '`compatibility` must be a string (at most 500 characters), e.g. `compatibility: Requires git and network access`.',
      range: rangeOfValue(compat),
      data: { field: 'compatibility' },
    });
    return;
  }
  // Code points never outnumber UTF-16 units, so short values need no count.
  const len = v.length > COMPATIBILITY_MAX ? codePointLength(v) : v.length;
  if (len > COMPATIBILITY_MAX) {
    out.push({
      rule: 'compatibility-too-long',
      message: `\`compatibility\` is ${len} characters; the limit is ${COMPATIBILITY_MAX}. Shorten it and move details into the body.`,
      range: rangeOfValue(compat),
      data: { field: 'compatibility', length: len, limit: COMPATIBILITY_MAX },
    });
  }
}

export function isToolList(v: unknown): boolean {
  if (typeof v === 'string') return true;
  return Array.isArray(v) && v.every((t) => typeof t === 'string');
}

export function checkAllowedToolsShape(tools: FrontmatterField, value: unknown, out: Finding[]): void {
  const bad = isToolList(value) ? (parseAllowedTools(value) ?? []).filter((e) => !isToolNameEntry(e)) : undefined;
  if (bad && !bad.length) return;
  out.push({
    rule: 'allowed-tools-invalid',
    message: bad
      ? `\`allowed-tools\` has ${bad.map((e) => `'${e}'`).join(', ')}, which ${bad.length === 1 ? 'is not a tool name' : 'are not tool names'}: a tool name starts with a letter (e.g. \`Read\`, \`Bash(git:*)\`, \`mcp__server__tool\`). Fix or remove ${bad.length === 1 ? 'it' : 'them'}.`
      : '`allowed-tools` must be a space- or comma-separated string of tool names (e.g. `Bash(git:*) Read`) or a list of tool names.',
    range: rangeOfValue(tools),
    data: { field: 'allowed-tools', ...(bad ? { invalidEntries: bad } : {}) },
  });
}

export function checkMetadata(f: FrontmatterField, out: Finding[]): void {
  if (f.kind === 'empty') return;
  if (f.kind !== 'map') {
    out.push({
      rule: 'metadata-invalid',
      message: '`metadata` must be a mapping of string keys to string values, written as indented `key: value` lines.',
      range: rangeOfValue(f),
      data: { field: 'metadata' },
    });
    return;
  }
  for (const child of f.children ?? []) {
    if (child.kind === 'scalar' || child.kind === 'empty') continue;
    out.push({
      rule: 'metadata-invalid',
      message: `\`metadata.${child.key}\` must be a string value, not a ${child.kind === 'seq' ? 'list' : child.kind === 'map' ? 'mapping' : 'reference'}. Write it as one string, e.g. \`${child.key}: "a, b"\`.`,
      range: rangeOfValue(child),
      data: { field: `metadata.${child.key}` },
    });
  }
}

/** Fields whose own rules judge their value; field-type skips them. */
const OWN_RULES = new Set(['name', 'description', 'compatibility', 'allowed-tools', 'metadata']);

/** field-type for every other known field (a repeated key is judged once, by its first occurrence). */
export function checkFieldTypes(fields: readonly FrontmatterField[], props: Record<string, unknown>, out: Finding[]): void {
  for (const f of fields) {
    if (OWN_RULES.has(f.key) || firstField(fields, f.key) !== f) continue;
    const info = getField(f.key);
    if (info && !hasType(f, props[f.key], info.type)) {
      out.push({
        rule: 'field-type',
        message: `\`${f.key}\` must be ${typeWords(info.type)}. ${info.doc}`,
        range: rangeOfValue(f),
        data: { field: f.key, expectedType: info.type },
      });
    }
  }
}

function hasType(f: FrontmatterField, v: unknown, type: FieldValueType): boolean {
  if (f.kind === 'empty') return true;
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'string' && /^(true|false)$/i.test(v.trim());
    case 'string-or-list':
      return isToolList(v);
    case 'mapping':
      return f.kind === 'map';
  }
}

function typeWords(t: FieldValueType): string {
  return { string: 'a string', boolean: '`true` or `false`', 'string-or-list': 'a string or a list of strings', mapping: 'a mapping of `key: value` lines' }[t];
}
