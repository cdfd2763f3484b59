import type { Severity } from '../skillTypes';

/** A rule id (any string: findings of the server and of other tools share the shape). */
export type RuleId = string;

/** A rule's level in one mode: a severity, or `off` when the mode does not check it. */
export type RuleLevel = Severity | 'off';

/** A numeric option of a rule (a limit), settable in `.agent-skills.yaml`. */
export interface RuleOptionInfo {
  default: number;
  /** One line: what the number limits. */
  description: string;
}

/** One validation rule. The language server, the CLI, the config schema and the README read these; none restates a rule. */
export interface RuleInfo {
  id: string;
  /** Level in `strict` mode: exactly the agentskills.io reference validator (`skills-ref`); extra checks never fail it. */
  strict: RuleLevel;
  /** Level in `lenient` mode (the default): what VS Code, Claude Code and Codex load is never an error. */
  lenient: RuleLevel;
  /** One line, for tables and completion lists. */
  description: string;
  /** Longer Markdown for hovers and `agent-skills explain`: why the rule exists and how to fix a finding. */
  doc: string;
  /** The quick fix, when the rule has one; `safe` fixes are the ones `validate --fix` applies without asking. */
  fix?: { title: string; safe: boolean };
  /** Numeric options (limits) with their defaults. */
  options?: Readonly<Record<string, RuleOptionInfo>>;
}

/** Shorthand for a rule entry. */
export function rule(id: string, strict: RuleLevel, lenient: RuleLevel, description: string, doc: string, extra: Pick<RuleInfo, 'fix' | 'options'> = {}): RuleInfo {
  return { id, strict, lenient, description, doc, ...extra };
}
