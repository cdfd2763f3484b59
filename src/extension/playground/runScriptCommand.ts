// "Run Script…": a user's own run of a skill script, through the runtime path run_skill_script uses (the
// runtime's runScript: same checks, executor, sandbox, limits and audit line), outside any chat session.
// It always asks for confirmation, with the arguments (the last ones remembered per script) to edit and the sandbox
// truth, never runs in an untrusted workspace, shows progress with a cancel button, and opens the report.
import * as vscode from 'vscode';
import type { ToolResult } from '../../core/tools/toolResult';
import { UNTRUSTED_RUN, type SkillsService } from '../skillsService';
import { MANAGE_TRUST_LABEL, showUntrustedError } from '../trust';
import { sandboxConfirmation } from '../tools/sandboxInfo';
import { joinArgs, splitArgs } from './argLine';
import type { ReportDocuments } from './reportDocuments';
import { endLine, reportTitle, runReport, shortEnd } from './runReport';
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
    if (!vscode.workspace.isTrusted) {
      // The action first: a notification shows one line before "more", and the button does what it says.
      const reason = `Trust this folder to run skill scripts (${MANAGE_TRUST_LABEL}). ${UNTRUSTED_RUN.message}`;
      void showUntrustedError(reason);
      return { ran: false, reason };
    }
    const { registry } = await this.service.ready();
    const target = await resolveScriptTarget(registry.usable(), arg);
    if (!target) return { ran: false, reason: 'dismissed' };
    if ('problem' in target) return this.refuse(`Run Script: ${target.problem}`);
    const given = (typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) ? (arg as RunScriptArgs).args : undefined) ?? extra?.args;
    const args = await this.confirm(target, given ?? this.lastArgs(target));
    if (!args) return { ran: false, reason: 'not confirmed' };
    await this.rememberArgs(target, args);
    return this.execute(target, args);
  }

  private argsKey(t: ScriptTarget): string {
    return `${t.skill.id}\n${t.script}`;
  }

  private lastArgs(t: ScriptTarget): string[] {
    return this.state.get<Record<string, string[]>>(ARGS_KEY, {})[this.argsKey(t)] ?? [];
  }

  private async rememberArgs(t: ScriptTarget, args: string[]): Promise<void> {
    const all = { ...this.state.get<Record<string, string[]>>(ARGS_KEY, {}), [this.argsKey(t)]: args };
    await this.state.update(ARGS_KEY, all);
  }

  /**
   * Always asked, whoever calls: one input box whose value is the arguments (given, or the last ones; editable,
   * and nothing is filtered by typing) and whose title and message say what runs and, in full, the sandbox
   * truth from the probe the run will use. Enter runs, Escape cancels. Answers the arguments, or undefined.
   */
  private async confirm(t: ScriptTarget, args: readonly string[]): Promise<string[] | undefined> {
    const sandbox = sandboxConfirmation(await this.service.sandboxStatus());
    const box = vscode.window.createInputBox();
    box.title = `Run ${t.script} of skill ${t.skill.name}${sandbox.title}?`;
    box.value = joinArgs(args);
    box.placeholder = 'No arguments (type them here)';
    const prompt = `Enter runs it with the arguments above in a fresh run folder (timeout ${this.service.settings.scriptTimeoutSeconds} s); Escape cancels. Arguments are separated by spaces; quote one that holds spaces; no shell runs, so $, * and ~ pass as typed. ${sandbox.text}`;
    box.prompt = prompt;
    box.ignoreFocusOut = true;
    const problem = (v: string): string | undefined => {
      try {
        splitArgs(v);
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    };
    return new Promise<string[] | undefined>((resolve) => {
      let answer: string[] | undefined;
      box.onDidChangeValue((v) => (box.validationMessage = problem(v)));
      box.onDidAccept(() => {
        if (problem(box.value)) return;
        answer = splitArgs(box.value);
        box.hide();
      });
      box.onDidHide(() => {
        box.dispose();
        resolve(answer);
      });
      box.show();
    });
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
    const text = runReport({ skill: t.skill.name, script: t.script, args, started, sandbox: await this.service.sandboxStatus() }, invocation, (ref) => this.service.resolveRunRef(ref));
    const facts = invocation.ok ? (invocation.result as Parameters<typeof shortEnd>[0] & { run_id: string }) : undefined;
    const uri = this.reports.add(reportTitle(t.skill.name, t.script, facts ? shortEnd(facts) : 'refused'), text, facts?.run_id ?? `refused-${started.getTime()}`);
    await this.reports.show(uri);
    if (invocation.ok) this.service.log.info(`Run Script: ${t.skill.name} ${t.script}: ${endLine(invocation.result as Parameters<typeof endLine>[0])}`);
    else void vscode.window.showErrorMessage(`Run Script: ${invocation.error.message}`);
    return { ran: true, uri: uri.toString(), invocation };
  }
}
