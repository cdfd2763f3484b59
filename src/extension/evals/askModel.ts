// One plain question to the user's model (drafting requests, proposing a description): the text of its answer,
// read no further than the core's bound on model answers. No tools are offered.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { MAX_MODEL_ANSWER_CHARS, type SkillBrief } from '../../core/evals';
import { parseSkillFile } from '../../core/skill/parseSkillFile';
import type { SkillRecord } from '../../core/registry/registryTypes';
import { describeModelError } from '../chat/toolLoop';

/** The answer's text; a model error becomes an Error whose message says what it means. */
export async function askModel(model: vscode.LanguageModelChat, prompt: string, justification: string, token: vscode.CancellationToken): Promise<string> {
  let text = '';
  try {
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], { justification }, token);
    for await (const chunk of response.text) {
      text += chunk;
      // One character over the bound is enough for the parser to refuse it with its message.
      if (text.length > MAX_MODEL_ANSWER_CHARS) break;
    }
  } catch (e) {
    throw new Error(`the model could not answer: ${describeModelError(e)}`);
  }
  return text;
}

/** A skill as the prompts show it: name, description and the start of its body, read from its SKILL.md now. */
export function skillBrief(record: SkillRecord): SkillBrief {
  let body = '';
  try {
    body = parseSkillFile(fs.readFileSync(record.location, 'utf8').slice(0, 64 * 1024)).body;
  } catch {
    // The description alone still describes the skill.
  }
  return { name: record.name, description: record.description, body };
}
