// "Agent Skills: Test Triggers": the model judge run on a skill's trigger set, with a token estimate and a modal
// confirmation before the user's quota is spent, progress per request with Cancel, and the report (the shared
// renderer, plus what changed since the last run of the same file and judge) in a Markdown preview.
import * as vscode from 'vscode';
import { checkTriggerQueries, diffTriggerReports, MAX_TRIGGER_FILE_CHARS, readLastReport, renderTriggerDiff, renderTriggerReport, writeLastReport, type TriggerQuery, type TriggerReport } from '../../core/evals';
import type { ReportDocuments } from '../playground/reportDocuments';
import type { SkillsService } from '../skillsService';
import { estimateTokens, judgeWithModel } from './modelJudge';
import { currentText, pickModel, triggerTarget } from './triggerTarget';

/** Options a caller (automation, a test) may give instead of the prompts. */
export interface TestTriggersOptions {
  /** The model's id (vscode.lm); without it the user picks. */
  model?: string;
  /** Only these splits' requests (the rerun after a description change uses `validation`). */
  split?: 'train' | 'validation';
}

/** What the command answers (plain JSON, for automation). */
export interface TestTriggersResult {
  report?: TriggerReport;
  /** The report's document. */
  uri?: string;
  /** The report of the previous run of the same file and judge, when there was one. */
  previous?: TriggerReport;
  stoppedBy?: string;
  /** True when the user declined the confirmation (nothing was sent). */
  declined?: boolean;
  /** Why the command stopped (also shown as an error message). */
  error?: string;
}

/** Reads and checks a trigger file (unsaved edits included); errors name the file and the first problem. */
export async function readTriggerSet(file: string, skill: string): Promise<TriggerQuery[]> {
  // A file within the parse bound is at most 4 bytes per character.
  const text = await currentText(file, MAX_TRIGGER_FILE_CHARS * 4);
  if (text === undefined) {
    throw new Error(`${file} does not exist. Run "Agent Skills: Draft Trigger Requests" to write one, or create it: a JSON array of { "query": "...", "should_trigger": true|false }.`);
  }
  const check = checkTriggerQueries(text, { skill, file });
  const errors = check.findings.filter((f) => f.severity === 'error');
  if (errors.length) throw new Error(`${errors[0].message} (${errors.length} error${errors.length === 1 ? '' : 's'} in ${file}; see the Problems view.)`);
  if (!check.queries.length) throw new Error(`${file} has no request. Add requests { "query": "...", "should_trigger": true|false }.`);
  return check.queries;
}

export class TriggerTests {
  private readonly running = new Set<vscode.CancellationTokenSource>();

  constructor(
    private readonly service: SkillsService,
    private readonly reports: ReportDocuments,
    private readonly storageDir: string,
  ) {}

  /** Cancels every run in progress (the command "Stop Trigger Tests"); answers how many. */
  stopAll(): number {
    for (const s of this.running) s.cancel();
    return this.running.size;
  }

  async run(arg?: unknown, options: TestTriggersOptions = {}): Promise<TestTriggersResult | undefined> {
    try {
      return await this.runOrThrow(arg, options);
    } catch (e) {
      const message = `Test Triggers: ${e instanceof Error ? e.message : String(e)}`;
      this.service.log.error(message);
      void vscode.window.showErrorMessage(message);
      return { error: message };
    }
  }

  private async runOrThrow(arg: unknown, options: TestTriggersOptions): Promise<TestTriggersResult | undefined> {
    const target = await triggerTarget(this.service, arg, true);
    if (!target) return undefined;
    const skill = target.record.name;
    const all = await readTriggerSet(target.file, skill);
    const queries = options.split ? all.filter((q) => (q.split ?? 'train') === options.split) : all;
    if (!queries.length) throw new Error(`${target.file} has no request in the ${options.split} split. Mark some requests "split": "${options.split}".`);
    const model = await pickModel(options.model);
    if (!model) return undefined;
    const trials = this.service.settings.triggerTrials;
    const source = new vscode.CancellationTokenSource();
    this.running.add(source);
    try {
      const perRound = await estimateTokens(this.service, model, queries, source.token);
      const calls = queries.length * trials;
      const tokens = (perRound * trials).toLocaleString('en-US');
      // A quick pick that stays open until answered (VS Code refuses modal dialogs to extensions under test, so a
      // modal could not be tested); Send is first, Escape or Cancel declines.
      const send = { label: `$(check) Send ${calls} request${calls === 1 ? '' : 's'} to ${model.name}`, detail: `about ${tokens} input tokens as ${model.name} counts them (more when it searches with find_skills)`, send: true };
      const answer = await vscode.window.showQuickPick([send, { label: '$(close) Cancel', detail: 'Send nothing.', send: false }], {
        title: `Test the triggers of ${skill}: ${queries.length} request${queries.length === 1 ? '' : 's'}${options.split ? ` (${options.split} split)` : ''} × ${trials} attempt${trials === 1 ? '' : 's'} (agentSkills.evals.trialsPerRequest) = ${calls} model calls, spending your ${model.name} quota`,
        placeHolder: `Send ${calls} requests (about ${tokens} input tokens)?`,
        ignoreFocusOut: true,
      });
      if (!answer?.send) return { declined: true };
      const previous = await readLastReport(this.service.host, this.storageDir, target.file, 'model');
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Testing triggers of ${skill} with ${model.name}`, cancellable: true },
        (progress, token) => {
          const sub = token.onCancellationRequested(() => source.cancel());
          let done = 0;
          return judgeWithModel(this.service, {
            skill,
            file: target.file,
            queries,
            model,
            trials,
            token: source.token,
            onTrial: (i, t) => {
              progress.report({ message: `request ${i + 1}/${queries.length}, attempt ${t}/${trials}: ${queries[i].query.slice(0, 60)}`, increment: done++ ? 100 / calls : 0 });
            },
          }).finally(() => sub.dispose());
        },
      );
      const { report, stoppedBy } = outcome;
      // A partial run (cancelled, or one split only) is shown, never kept as the comparison for the next one.
      if (!report.cancelled && !options.split) await writeLastReport(this.service.host, this.storageDir, report);
      const before = previous && options.split ? { ...previous, results: previous.results.filter((r) => r.split === options.split) } : previous;
      const text = [
        ...(stoppedBy ? [`> **Stopped after a model error**: ${stoppedBy}. The requests after it were not sent; fix the cause (model access, quota) and run again.`, ''] : []),
        renderTriggerReport(report),
        ...(before ? ['', renderTriggerDiff(diffTriggerReports(before, report), { level: 2 })] : ['', '## Compared with the last run', '', 'This is the first complete model run of this trigger file: the next one will show what changed.']),
      ].join('\n');
      const passed = report.results.filter((r) => r.passed).length;
      const uri = this.reports.add(`${skill} · trigger test · ${report.cancelled ? 'cancelled' : `${passed} of ${report.results.length}`}`, text, report.startedAt);
      await this.reports.show(uri);
      if (stoppedBy) void vscode.window.showErrorMessage(`Test Triggers stopped: ${stoppedBy}`);
      return { report, uri: uri.toString(), ...(previous ? { previous } : {}), ...(stoppedBy ? { stoppedBy } : {}) };
    } finally {
      this.running.delete(source);
      source.dispose();
    }
  }
}
