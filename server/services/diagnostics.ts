import * as path from 'node:path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { Severity, SkillDiagnostic } from '../../src/core/skill';
import { DIAGNOSTIC_SOURCE } from '../protocol';
import type { ServerSettings } from '../serverSettings';
import type { SkillAnalysis } from '../skillAnalysis';
import { BUILTIN_VALIDATOR_RULES } from '../skillCore';
import { pathToUri } from '../uris';

/** Diagnostics to publish, grouped by the URI they belong to (SKILL.md itself, or another file of the skill). */
export type DiagnosticsByUri = Map<string, Diagnostic[]>;

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Payload kept on every published diagnostic so code actions can work from it alone. */
export interface DiagnosticData {
  rule: string;
  data?: Record<string, unknown>;
}

export function toLspDiagnostic(p: SkillDiagnostic): Diagnostic {
  const data: DiagnosticData = { rule: p.rule, data: p.data };
  return { range: p.range, severity: SEVERITY[p.severity] ?? DiagnosticSeverity.Warning, code: p.rule, source: DIAGNOSTIC_SOURCE, message: p.message, data };
}

/**
 * True when VS Code's own skill validator already shows this problem and the user asked us to leave it to it.
 * That validator only looks at SKILL.md files open in an editor, so problems of closed files (the workspace
 * scan) are never deferred: otherwise the Problems view would hide a broken skill's errors until it is opened.
 */
export function isDeferred(rule: string, settings: ServerSettings, openInEditor = true): boolean {
  return openInEditor && settings.deferToBuiltin && settings.builtinSkillValidatorActive && BUILTIN_VALIDATOR_RULES.has(rule);
}

/** The diagnostics of one analysed SKILL.md, after deferral, grouped by target URI (SKILL.md's URI always present). */
export function diagnosticsFor(a: SkillAnalysis, settings: ServerSettings): DiagnosticsByUri {
  const out: DiagnosticsByUri = new Map([[a.uri, []]]);
  for (const p of a.problems) {
    if (isDeferred(p.rule, settings, a.version !== null)) continue;
    let uri = a.uri;
    if (p.file && a.skillDir && p.file !== 'SKILL.md') uri = pathToUri(path.join(a.skillDir, p.file));
    const list = out.get(uri) ?? [];
    list.push(toLspDiagnostic(p));
    out.set(uri, list);
  }
  return out;
}
