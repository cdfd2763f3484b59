/** Shared shapes for parsing and validating SKILL.md files. Positions are LSP-style: 0-based, UTF-16. */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** How strictly a SKILL.md is judged. */
export type ValidationMode = 'strict' | 'lenient';

/** One problem found in a skill, with a stable rule id. */
export interface SkillDiagnostic {
  /** Stable rule id, e.g. `name-invalid-chars`; also the LSP diagnostic code. */
  rule: string;
  severity: Severity;
  /** Names the field, the limit and the fix. */
  message: string;
  range: Range;
  /** File the finding is about, relative to the skill root, when it is not SKILL.md itself. */
  file?: string;
  /** Extra facts a quick fix can use (e.g. the expected name). */
  data?: Record<string, unknown>;
}

/** How a YAML scalar was written, so edits can keep quoting. */
export type ScalarStyle = 'plain' | 'single' | 'double' | 'block-literal' | 'block-folded';

/** One top-level frontmatter key with the source ranges of its key and value. */
export interface FrontmatterField {
  key: string;
  keyRange: Range;
  /** Range of the value as written; an empty range right after the colon when the value is missing. */
  valueRange: Range;
  kind: 'scalar' | 'map' | 'seq' | 'empty' | 'alias';
  style?: ScalarStyle;
  /** The value as YAML data; scalars are always strings, exactly as written. */
  value: unknown;
  /** Nested fields of a mapping value (one level, e.g. `metadata`). */
  children?: FrontmatterField[];
}

/** Where the frontmatter sits in the file. */
export interface FrontmatterBlock {
  /** 0-based line of the opening `---`. */
  openLine: number;
  /** 0-based line of the closing `---`, or -1 when it is never closed. */
  closeLine: number;
  /** The YAML text between the delimiters, as written. */
  yaml: string;
  /** Offset of the YAML text inside the file text. */
  yamlOffset: number;
  /** True when the YAML parsed without errors. */
  yamlOk: boolean;
  /** True when the YAML is a mapping (or empty). */
  isMapping: boolean;
  /** YAML features the reference validator's parser rejects (flow collections, anchors, aliases, tags); absent when none. */
  strictYamlIssues?: StrictYamlIssue[];
}

/** A YAML construct that is valid YAML but outside the strict subset the reference validator parses. */
export interface StrictYamlIssue {
  kind: 'flow' | 'anchor' | 'alias' | 'tag';
  range: Range;
}

/** The result of parsing one SKILL.md text. Never throws for bad input. */
export interface ParsedSkillFile {
  text: string;
  /** Line ending used by the file. */
  eol: '\n' | '\r\n';
  hasBom: boolean;
  frontmatter?: FrontmatterBlock;
  /** Frontmatter as data, keys as written (`allowed-tools` keeps its hyphen), scalars as strings. */
  properties: Record<string, unknown>;
  fields: FrontmatterField[];
  body: string;
  /** 0-based line where the body starts. */
  bodyStartLine: number;
  /** Problems found while parsing (file shape and YAML syntax). */
  diagnostics: SkillDiagnostic[];
}
