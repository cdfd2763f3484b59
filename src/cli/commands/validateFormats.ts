import * as path from 'node:path';
import { RULES, type SkillDiagnostic } from '../../core/skill';
import { printable, workflowMessage, workflowProperty } from '../terminalText';
import { UsageError } from '../usageError';

/** The output formats of `validate` and `eval`. */
export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `--format` (or `--json`, same as `--format json`), checked: text unless said otherwise. */
export function outputFormat(values: { format?: string; json?: boolean }): OutputFormat {
  const format = values.format ?? (values.json ? 'json' : 'text');
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}, not '${values.format}'.`);
  return format as OutputFormat;
}

/** A rule SARIF lists besides the skill rules (e.g. `eval`'s trigger results): id, one line, the longer text. */
export interface SarifRule {
  id: string;
  description: string;
  doc: string;
  level: 'error' | 'warning' | 'note';
}

/** One skill's result, as `--format json` prints it. */
export interface ValidateResult {
  path: string;
  /** Absolute skill folder (for locations in SARIF and annotations). */
  dir: string;
  /** The skill file's name, when there is one. */
  fileName?: string;
  name: string;
  /** `plugin` for an Agent Plugin's own files (its skills are results of their own). */
  kind?: 'skill' | 'plugin';
  valid: boolean;
  diagnostics: Pick<SkillDiagnostic, 'rule' | 'severity' | 'message' | 'range' | 'file'>[];
}

/** Human output as the reference CLI prints it (errors as `  - message`), then the other findings. */
export function formatHuman(r: ValidateResult): string {
  const where = printable(r.path);
  const lines = [r.valid ? `Valid ${r.kind ?? 'skill'}: ${where}` : `Validation failed for ${where}:`];
  for (const d of r.diagnostics) if (d.severity === 'error') lines.push(`  - ${printable(d.message)}`);
  for (const d of r.diagnostics) {
    if (d.severity === 'error') continue;
    lines.push(`  ${d.severity}: ${printable(d.message)} [${printable(d.rule)} ${printable(d.file ?? 'SKILL.md')}:${d.range.start.line + 1}:${d.range.start.character + 1}]`);
  }
  return `${lines.join('\n')}\n`;
}

function fileOf(r: ValidateResult, d: ValidateResult['diagnostics'][number], cwd: string): string {
  const abs = path.join(r.dir, d.file ?? r.fileName ?? 'SKILL.md');
  return path.relative(cwd, abs).split(path.sep).join('/');
}

/** GitHub Actions workflow commands: one `::error file=…,line=…,col=…,title=…::message` line per finding. */
export function formatGithub(results: readonly ValidateResult[], cwd: string): string {
  const lines: string[] = [];
  for (const r of results) {
    for (const d of r.diagnostics) {
      const cmd = d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'notice';
      const s = d.range.start;
      const e = d.range.end;
      lines.push(`::${cmd} file=${workflowProperty(fileOf(r, d, cwd))},line=${s.line + 1},col=${s.character + 1},endLine=${e.line + 1},endColumn=${e.character + 1},title=${workflowProperty(`agent-skills ${d.rule}`)}::${workflowMessage(d.message)}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A SARIF reportingDescriptor. */
function sarifRule(r: Omit<SarifRule, 'level'> & { level: SarifRule['level'] | 'none' }, properties?: Record<string, unknown>) {
  return {
    id: r.id,
    name: r.id.replace(/(^|-)(\w)/g, (_: string, __: string, c: string) => c.toUpperCase()),
    shortDescription: { text: r.description },
    fullDescription: { text: r.doc },
    help: { text: r.doc, markdown: r.doc },
    defaultConfiguration: { level: r.level },
    ...(properties ? { properties } : {}),
  };
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note', hint: 'note' } as const;

/**
 * SARIF 2.1.0, as GitHub code scanning reads it: the tool's rules with help text, one result per finding
 * with a physical location (file relative to `cwd`, 1-based region; columns in UTF-16 units).
 */
export function formatSarif(results: readonly ValidateResult[], cwd: string, version: string, extraRules: readonly SarifRule[] = []): Record<string, unknown> {
  const rules = [
    ...RULES.map((r) => sarifRule({ id: r.id, description: r.description, doc: r.doc, level: r.lenient === 'off' ? 'none' : SARIF_LEVEL[r.lenient] }, { strict: r.strict, lenient: r.lenient })),
    ...extraRules.map((r) => sarifRule(r)),
  ];
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const out: unknown[] = [];
  for (const r of results) {
    for (const d of r.diagnostics) {
      const s = d.range.start;
      const e = d.range.end;
      const region: Record<string, number> = { startLine: s.line + 1, startColumn: s.character + 1 };
      if (e.line > s.line || e.character > s.character) Object.assign(region, { endLine: e.line + 1, endColumn: e.character + 1 });
      out.push({
        ruleId: d.rule,
        ...(index.has(d.rule) ? { ruleIndex: index.get(d.rule) } : {}),
        level: SARIF_LEVEL[d.severity],
        message: { text: d.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: encodeURI(fileOf(r, d, cwd)), uriBaseId: '%SRCROOT%' }, region } }],
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'agent-skills', informationUri: 'https://agentskills.io', semanticVersion: version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `${encodeURI(cwd.split(path.sep).join('/')).replace(/\/?$/, '/')}`.replace(/^(?!file:)/, 'file://') } },
        columnKind: 'utf16CodeUnits',
        results: out,
      },
    ],
  };
}
