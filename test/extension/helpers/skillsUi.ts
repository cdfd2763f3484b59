// Test-side handles on the extension's UI: the tree (through agentSkills.describeTree, which walks the real
// TreeDataProviders), the chat view, and screenshots of the workbench taken by the harness.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, PARTICIPANT } from '../../../src/extension/ids';
import type { DescribedNode } from '../../../src/extension/tree/registerTree';
import { waitFor } from './waitFor';

export type { DescribedNode };

/** Both views of the Skills tree as the providers render them. */
export async function describeTree(): Promise<{ available: DescribedNode[]; sessions: DescribedNode[] }> {
  return vscode.commands.executeCommand(COMMANDS.describeTree);
}

/** Every node under `nodes`, depth first. */
export function flatten(nodes: DescribedNode[]): DescribedNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** The "Available" node of a skill by name. */
export async function availableSkill(name: string): Promise<DescribedNode> {
  const tree = await describeTree();
  const n = flatten(tree.available).find((x) => x.contextValue?.startsWith('skill.') && x.label === name);
  if (!n) throw new Error(`the Available view has no skill ${name}: ${flatten(tree.available).map((x) => x.label).join(', ')}`);
  return n;
}

/** The "Sessions" node whose label is `label`, once it exists. */
export async function sessionNode(label: string | RegExp): Promise<DescribedNode> {
  return waitFor(`a session "${label}" in the Sessions view`, async () =>
    (await describeTree()).sessions.find((s) => (typeof label === 'string' ? s.label === label : label.test(s.label))),
  );
}

/** The names of the active skills under a session node (load order). */
export async function activeSkillsOf(label: string | RegExp): Promise<string[]> {
  return (await sessionNode(label)).children.map((c) => c.label);
}

/** Submits `@skills <prompt>` in the current chat (a follow-up in the same conversation). */
export async function continueChat(prompt: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@${PARTICIPANT.name} ${prompt}` });
}

/** Starts a new conversation and submits `@skills <prompt>`. */
export async function newChat(prompt: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await continueChat(prompt);
}

/** Before each line the harness reads as "take a screenshot of the workbench into this file". */
export const SCREENSHOT_MARKER = '@@skills-screenshot ';

/**
 * Asks the harness for a PNG of the whole workbench, taken once the page shows `waitForText` (when given),
 * and waits until the file is written.
 */
export async function screenshot(file: string, waitForText?: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true });
  console.log(`${SCREENSHOT_MARKER}${JSON.stringify({ path: file, waitForText })}`);
  await waitFor(`the screenshot ${file}`, () => fs.existsSync(file) && fs.statSync(file).size > 0, 30_000);
}
