import type { RuleId } from './rules/ruleInfo';
import type { Range } from './skillTypes';

/** A finding before its severity is set by the mode. */
export interface Finding {
  rule: RuleId;
  message: string;
  range: Range;
  file?: string;
  /** Facts for quick fixes; `data.fix` ({ title, edits }) is the rule's own fix when it has one. */
  data?: Record<string, unknown>;
}

export { codePointLength } from './codePoints';
