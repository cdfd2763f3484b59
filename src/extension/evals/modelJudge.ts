// The model judge: each request of a trigger set sent as the first turn of a fresh `@skills` session, N times, to
// the model the user picked. The call is built by the participant's own code (the scratch turn start, the runtime's
// compose, the same tools and request options); find_skills is answered with its real result on the scratch runtime.
// What the calls mean is the core's (core/evals/modelTrial.ts).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { requestResult, runModelTrial, type TrialConversation, type TrialToolCall, type TriggerQuery, type TriggerReport, type TriggerRequestResult, splitScores } from '../../core/evals';
import type { ChatMessage } from '../../core/prompt/promptTypes';
import type { SkillTools } from '../../core/runtime/skillTools';
import { toolResultText } from '../../core/toolTable/toolResultText';
import { findTool } from '../../core/toolTable/toolTable';
import { CATALOG_TOOLS, FIND_TOOL, RUNTIME_TOOLS } from '../../core/tools/toolNames';
import { toChatMessages } from '../chat/messages';
import { offeredTools } from '../chat/participant';
import { describeModelError, skillsRequestOptions } from '../chat/toolLoop';
import { beginScratchTurn } from '../chat/turnStart';
import { windowListing } from '../tools/descriptorTool';
import type { SkillsService } from '../skillsService';

const NAMES = { load: RUNTIME_TOOLS.load.name, runSkill: CATALOG_TOOLS.runSkill.name, find: FIND_TOOL.name };

/** Model errors after which every further call fails the same way: the run stops instead of spending the rest. */
const STOPPING_ERRORS = new Set([vscode.LanguageModelError.NoPermissions.name, vscode.LanguageModelError.Blocked.name, vscode.LanguageModelError.NotFound.name]);

/** What one run judges. */
export interface ModelJudgeRun {
  skill: string;
  file: string;
  queries: readonly TriggerQuery[];
  model: vscode.LanguageModelChat;
  trials: number;
  token: vscode.CancellationToken;
  /** Called before each attempt (request index from 0, attempt from 1). */
  onTrial?(request: number, attempt: number): void;
}

/** A run's report, and the model error that stopped it early, if one did. */
export interface ModelJudgeOutcome {
  report: TriggerReport;
  stoppedBy?: string;
}

/** One fresh session on a scratch copy of the runtime, as the trial's conversation. */
async function freshConversation(service: SkillsService, runtime: SkillTools, model: vscode.LanguageModelChat, request: string, token: vscode.CancellationToken): Promise<TrialConversation> {
  const sessionId = `trigger-test-${randomUUID()}`;
  const { scratch } = await beginScratchTurn(runtime, sessionId, request, []);
  const history: ChatMessage[] = [{ role: 'user', content: request }];
  const tools = offeredTools(service);
  const find = findTool(FIND_TOOL.name);
  return {
    async send() {
      const composed = await scratch.compose(sessionId, history);
      const response = await model.sendRequest(toChatMessages(composed), skillsRequestOptions(tools), token);
      const calls: TrialToolCall[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelToolCallPart) calls.push({ callId: part.callId, name: part.name, input: part.input });
      }
      return calls;
    },
    async answerFind(call) {
      const r = find
        ? await find.invoke({ sessionId, callId: call.callId, surface: 'vscode', services: { runtime: async () => scratch, listSkills: (id) => windowListing(service, id) } }, call.input)
        : undefined;
      history.push({ role: 'tool-call', callId: call.callId, name: call.name, input: call.input });
      history.push({ role: 'tool-result', callId: call.callId, name: call.name, content: r ? toolResultText(r) : `${FIND_TOOL.name} is not available.`, isError: !r?.ok });
    },
    describeError: describeModelError,
  };
}

/** Runs the trigger set against the model; cancellation keeps the requests judged so far (`cancelled` set). */
export async function judgeWithModel(service: SkillsService, run: ModelJudgeRun): Promise<ModelJudgeOutcome> {
  const { runtime, registry } = await service.ready();
  const startedAt = new Date().toISOString();
  const results: TriggerRequestResult[] = [];
  let stoppedBy: string | undefined;
  let cancelled = false;
  outer: for (const [i, q] of run.queries.entries()) {
    const trials = [];
    for (let t = 1; t <= run.trials; t++) {
      if (run.token.isCancellationRequested) {
        cancelled = true;
        break outer;
      }
      run.onTrial?.(i, t);
      let stopping: unknown;
      const conversation = await freshConversation(service, runtime, run.model, q.query, run.token);
      const trial = await runModelTrial(run.skill, { ...conversation, describeError: (e) => ((stopping = e), conversation.describeError(e)) }, NAMES, () => run.token.isCancellationRequested);
      if (run.token.isCancellationRequested) {
        cancelled = true;
        break outer;
      }
      trials.push(trial);
      if (stopping instanceof vscode.LanguageModelError && STOPPING_ERRORS.has(stopping.code)) {
        stoppedBy = trial.error;
        results.push(requestResult(q, trials));
        break outer;
      }
    }
    results.push(requestResult(q, trials));
  }
  const report: TriggerReport = {
    skill: run.skill,
    file: run.file,
    judge: 'model',
    model: `${run.model.name} (${run.model.vendor}/${run.model.id})`,
    catalogSize: registry.usable().length,
    trialsPerRequest: run.trials,
    startedAt,
    results,
    ...splitScores(results),
    ...(cancelled || stoppedBy ? { cancelled: true } : {}),
  };
  return { report, ...(stoppedBy ? { stoppedBy } : {}) };
}

/**
 * The input tokens of one fresh turn per request (the composed instructions and request, plus the tools' JSON) as
 * the model counts them: the estimate shown before a run, times the attempts. find_skills answers add more.
 */
export async function estimateTokens(service: SkillsService, model: vscode.LanguageModelChat, queries: readonly TriggerQuery[], token: vscode.CancellationToken): Promise<number> {
  const { runtime } = await service.ready();
  const toolsText = JSON.stringify(offeredTools(service));
  const toolTokens = await model.countTokens(toolsText, token);
  let total = 0;
  for (const q of queries) {
    const sessionId = `trigger-estimate-${randomUUID()}`;
    const { scratch } = await beginScratchTurn(runtime, sessionId, q.query, []);
    const composed = await scratch.compose(sessionId, [{ role: 'user', content: q.query }]);
    for (const m of toChatMessages(composed)) total += await model.countTokens(m, token);
    total += toolTokens;
  }
  return total;
}
