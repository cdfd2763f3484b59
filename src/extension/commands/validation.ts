// Validate All Skills / Validate Skill: the core validator over every discovered skill, shown in the
// Problems view. Files inside the workspace are the language server's (it publishes for every SKILL.md it
// scans); this collection covers the rest (user, extension and pack skills), so nothing shows twice.
import { relativeInside } from '../../core/paths/resolveInRoot';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { validateSkillDir } from '../../core/skill/readSkillDir';
import type { SkillDiagnostic } from '../../core/skill/skillTypes';
import type { SkillsService } from '../skillsService';

const SEVERITY: Record<SkillDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

function toDiagnostic(d: SkillDiagnostic): vscode.Diagnostic {
  const r = d.range;
  const diag = new vscode.Diagnostic(new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character), d.message, SEVERITY[d.severity]);
  diag.source = 'agent-skills';
  diag.code = d.rule;
  return diag;
}

function inWorkspace(file: string): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file' && relativeInside(f.uri.fsPath, file) !== undefined);
}

/** Validation of skills, and the diagnostics it publishes. */
export class SkillValidation implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('agent-skills');

  constructor(
    private readonly service: SkillsService,
    private readonly workspaceValidator: (files: vscode.Uri[]) => Promise<Map<string, vscode.Diagnostic[]>>,
  ) {}

  /** Validates one skill folder with the full validator; returns its diagnostics (by file). */
  async validateDir(dir: string): Promise<Map<string, vscode.Diagnostic[]>> {
    const v = await validateSkillDir(dir, { mode: vscode.workspace.getConfiguration('agentSkills').get<'strict' | 'lenient'>('validation.mode') ?? 'lenient' });
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const main = v.read.fileName ? path.join(dir, v.read.fileName) : path.join(dir, 'SKILL.md');
    for (const d of v.diagnostics) {
      const file = d.file ? path.join(dir, d.file) : main;
      byFile.set(file, [...(byFile.get(file) ?? []), toDiagnostic(d)]);
    }
    if (!byFile.has(main)) byFile.set(main, []);
    return byFile;
  }

  /** Validates every discovered skill; returns counts for the summary. */
  async validateAll(): Promise<{ skills: number; errors: number; warnings: number }> {
    const { registry } = await this.service.ready();
    await this.service.refresh();
    const records = registry.all();
    this.collection.clear();
    let errors = 0;
    let warnings = 0;
    const count = (ds: readonly vscode.Diagnostic[]) => {
      errors += ds.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
      warnings += ds.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
    };
    const workspaceFiles = records.filter((r) => inWorkspace(r.location)).map((r) => vscode.Uri.file(r.location));
    for (const ds of (await this.workspaceValidator(workspaceFiles)).values()) count(ds);
    for (const r of records.filter((x) => !inWorkspace(x.location))) {
      for (const [file, ds] of await this.validateDir(r.rootDir)) {
        this.collection.set(vscode.Uri.file(file), ds);
        count(ds);
      }
    }
    return { skills: records.length, errors, warnings };
  }

  dispose(): void {
    this.collection.dispose();
  }
}
