// "Run Script…": a user's own run of a skill script, through the runtime path run_skill_script uses (the
// runtime's runScript: same checks, executor, sandbox, limits and audit line), outside any chat session.
// It asks for arguments (the last ones remembered per script), always asks for confirmation with the sandbox
// truth, never runs in an untrusted workspace, shows progress with a cancel button, and opens the report.
import * as vscode from 'vscode';
import type { ToolResult } from '../../core/tools/toolResult';
import { UNTRUSTED_RUN, type SkillsService } from '../skillsService';
import { sandboxConfirmation } from '../tools/sandboxInfo';
import { joinArgs, splitArgs } from './argLine';
import type { ReportDocuments } from './reportDocuments';
import { endLine, runReport } from './runReport';
import { resolveScriptTarget, type RunScriptArgs, type ScriptTarget } from './scriptTarget';

/** What the command returns (for automation and tests): the report's URI, or why nothing ran. */
export type RunScriptOutcome = { ran: true; uri: string; invocation: ToolResult } | { ran: false; reason: string };

const ARGS_KEY = 'agentSkills.scriptArgs';
/** Context key set while a user run is in progress (enables "Stop Script Runs"). */
const RUNNING_KEY = 'agentSkills.scriptRunning';

export class ScriptRuns {
  private readonly running = new Set<AbortController>();

  constructor(
    private readonly service: SkillsService,
    private readonly state: vscode.Memento,
    private readonly reports: ReportDocuments,
  ) {}

  /** Cancels every run in progress (the notification's cancel button does the same for its own run). */
  stopAll(): number {
    const n = this.running.size;
    for (const c of this.running) c.abort();
    return n;
  }

  private refuse(reason: string): RunScriptOutcome {
    void vscode.window.showErrorMessage(reason);
    return { ran: false, reason };
  }

  /** The command: `arg` is a Skills view node, a file URI, `RunScriptArgs` or nothing; `extra` may carry `args`. */
  async run(arg?: unknown, extra?: RunScriptArgs): Promise<RunScriptOutcome> {
    if (!vscode.workspace.isTrusted) return this.refuse(`Run Script: ${UNTRUSTED_RUN.message} To run skill scripts, trust this folder with the command "Workspaces: Manage Workspace Trust".`);
    const { registry } = await this.service.ready();
    const target = await resolveScriptTarget(registry.usable(), arg);
    if (!target) return { ran: false, reason: 'dismissed' };
    if ('problem' in target) return this.refuse(`Run Script: ${target.problem}`);
    const given = (typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) ? (arg as RunScriptArgs).args : undefined) ?? extra?.args;
    const args = given ?? (await this.askArgs(target));
    if (!args) return { ran: false, reason: 'dismissed' };
    if (!(await this.confirm(target, args))) return { ran: false, reason: 'not confirmed' };
    await this.rememberArgs(target, args);
    return this.execute(target, args);
  }

  private argsKey(t: ScriptTarget): string {
    return `${t.skill.id}\n${t.script}`;
  }

  private async rememberArgs(t: ScriptTarget, args: string[]): Promise<void> {
    const all = { ...this.state.get<Record<string, string[]>>(ARGS_KEY, {}), [this.argsKey(t)]: args };
    await this.state.update(ARGS_KEY, all);
  }

  private async askArgs(t: ScriptTarget): Promise<string[] | undefined> {
    const last = this.state.get<Record<string, string[]>>(ARGS_KEY, {})[this.argsKey(t)] ?? [];
    const line = await vscode.window.showInputBox({
      title: `Arguments for ${t.script} (skill ${t.skill.name})`,
      prompt: 'Separated by spaces; quote an argument that holds spaces. No shell runs: $, * and ~ are passed as typed.',
      value: joinArgs(last),
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          splitArgs(v);
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    return line === undefined ? undefined : splitArgs(line);
  }

  /** Always asked, whoever calls: the same sandbox sentence the chat's confirmation shows. */
  private async confirm(t: ScriptTarget, args: string[]): Promise<boolean> {
    // The runner's answer, from the probe its run will use (as the chat's confirmation shows it).
    const sandbox = sandboxConfirmation(await this.service.sandboxStatus());
    const run = { label: '$(play) Run', detail: sandbox.text };
    const pick = await vscode.window.showQuickPick([run, { label: 'Cancel', detail: 'Do not run it.' }], {
      title: `Run ${t.script} of skill ${t.skill.name}${sandbox.title}?`,
      placeHolder: `Arguments: ${args.length ? joinArgs(args) : '(none)'} · in a fresh run folder, timeout ${this.service.settings.scriptTimeoutSeconds} s`,
      ignoreFocusOut: true,
    });
    return pick === run;
  }

  private async execute(t: ScriptTarget, args: string[]): Promise<RunScriptOutcome> {
    const { runtime } = await this.service.ready();
    const started = new Date();
    const controller = new AbortController();
    this.running.add(controller);
    void vscode.commands.executeCommand('setContext', RUNNING_KEY, true);
    let invocation: ToolResult;
    try {
      invocation = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Running ${t.script} of ${t.skill.name}`, cancellable: true },
        async (_progress, token) => {
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            // The files the script writes to $OUTPUT_DIR come back as links (metadata only: they open from the run folder).
            return await runtime.runScript({ skill: t.skill.id, script: t.script, args, outputs: { globs: ['out/**'], inline: false } }, { signal: controller.signal, caller: 'user' });
          } finally {
            sub.dispose();
          }
        },
      );
    } finally {
      this.running.delete(controller);
      if (!this.running.size) void vscode.commands.executeCommand('setContext', RUNNING_KEY, false);
    }
    const text = runReport({ skill: t.skill.name, script: t.script, args, started }, invocation, (ref) => this.service.resolveRunRef(ref));
    const name = invocation.ok ? `${(invocation.result as { run_id: string }).run_id} ${t.skill.name} ${t.script.replace(/\//g, '_')}` : `refused-${started.getTime()} ${t.skill.name}`;
    const uri = this.reports.add(name, text);
    await vscode.window.showTextDocument(uri, { preview: false });
    if (invocation.ok) this.service.log.info(`Run Script: ${t.skill.name} ${t.script}: ${endLine(invocation.result as Parameters<typeof endLine>[0])}`);
    else void vscode.window.showErrorMessage(`Run Script: ${invocation.error.message}`);
    return { ran: true, uri: uri.toString(), invocation };
  }
}
