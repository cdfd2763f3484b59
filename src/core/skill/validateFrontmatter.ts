import type { Finding } from './findings';
import { AGENT_PROFILES, agentsDefiningField, type AgentProfile } from './agentProfiles';
import { checkDescription } from './rules/description';
import type { TriggerElsewhere } from './rules/routing';
import { booleanValue, firstField } from './rules/fieldAccess';
import { checkAllowedToolsShape, checkCompatibility, checkFieldKey, checkFieldTypes, checkMetadata } from './rules/fields';
import { checkAgentFields } from './rules/agentFields';
import { checkName, effectiveSkillName } from './rules/name';
import type { TextIndex } from './textIndex';
import type { ParsedSkillFile } from './skillTypes';

export { COMPATIBILITY_MAX } from './rules/fields';
export { DESCRIPTION_MAX } from './rules/description';
export { NAME_MAX, RESERVED_WORDS, isSimpleName, effectiveSkillName } from './rules/name';
export { FATAL_PARSE_RULES } from './rules/fileShape';

const STRICT_YAML_WORDS = { flow: 'a flow collection (`[...]` or `{...}`)', anchor: 'an anchor (`&name`)', alias: 'an alias (`*name`)', tag: 'an explicit tag (`!tag`)' } as const;

/**
 * Where the skill says when to use it outside `description`, for `agents`: `disable-model-invocation: true`, read by
 * one of them, says the model never picks the skill (the user runs it by name), so no trigger is needed anywhere;
 * `when_to_use` (Claude Code appends it to the description it lists) says when for the agents that read it.
 */
function triggerElsewhere(parsed: ParsedSkillFile, agents: readonly AgentProfile[]): TriggerElsewhere | undefined {
  if (booleanValue(firstField(parsed.fields, 'disable-model-invocation'))?.value === true && agentsDefiningField('disable-model-invocation', agents).length > 0) {
    return { field: 'disable-model-invocation', readers: [], everywhere: true };
  }
  const when = parsed.properties.when_to_use;
  const readers = typeof when === 'string' && when.trim() !== '' ? agentsDefiningField('when_to_use', agents) : [];
  return readers.length > 0 ? { field: 'when_to_use', readers: readers.map((a) => a.label), everywhere: readers.length === agents.length } : undefined;
}

/** Checks the frontmatter fields of a parsed SKILL.md, calling each rule family in turn. */
export function validateFrontmatter(parsed: ParsedSkillFile, folderName: string, index: TextIndex, out: Finding[], agents: readonly AgentProfile[] = AGENT_PROFILES): void {
  const fm = parsed.frontmatter;
  if (!fm) return;
  if (fm.strictYamlIssues) for (const issue of fm.strictYamlIssues) {
    out.push({
      rule: 'yaml-strict-subset',
      message: `The frontmatter uses ${STRICT_YAML_WORDS[issue.kind]}, which the reference validator's strict YAML parser rejects. Write lists as \`- item\` lines and mappings as indented \`key: value\` lines.`,
      range: issue.range,
      data: { kind: issue.kind },
    });
  }
  const fields = parsed.fields;
  for (const f of fields) checkFieldKey(f, out, agents);
  const props = parsed.properties;

  const nameField = firstField(fields, 'name');
  if (!nameField) {
    out.push({
      rule: 'name-missing',
      message: `The required field \`name\` is missing. Add \`name: ${folderName}\` (the folder name) to the frontmatter.`,
      range: index.lineRange(fm.openLine), // only for a missing field
      data: {
        field: 'name',
        expected: folderName.normalize('NFKC'),
        fix: { title: `Add 'name: ${folderName.normalize('NFKC')}'`, edits: [{ range: { start: { line: fm.openLine + 1, character: 0 }, end: { line: fm.openLine + 1, character: 0 } }, newText: `name: ${folderName.normalize('NFKC')}${parsed.eol}` }] },
      },
    });
  } else {
    checkName(props.name, nameField, folderName, out);
  }

  const descField = firstField(fields, 'description');
  if (!descField) {
    out.push({
      rule: 'description-missing',
      message: 'The required field `description` is missing. Add `description:` saying what the skill does and when to use it (at most 1024 characters).',
      range: index.lineRange(fm.openLine), // only for a missing field
      data: { field: 'description' },
    });
  } else {
    checkDescription(props.description, descField, effectiveSkillName(props, folderName), out, triggerElsewhere(parsed, agents));
  }

  const compat = firstField(fields, 'compatibility');
  if (compat) checkCompatibility(compat, props.compatibility, out);
  const tools = firstField(fields, 'allowed-tools');
  if (tools && tools.kind !== 'empty') checkAllowedToolsShape(tools, props['allowed-tools'], out);
  const meta = firstField(fields, 'metadata');
  if (meta) checkMetadata(meta, out);
  checkFieldTypes(fields, props, out);
  checkAgentFields(parsed, out, agents);
}
