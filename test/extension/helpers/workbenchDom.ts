// What the workbench shows, read from its page by the harness (test/harness/session.mjs answers the
// `@@skills-dom` lines a suite prints): the text, input values and buttons of an element, whether any of its
// text is cut off, and clicks on it. For what the extension API cannot see: welcome content, notifications,
// the quick input as the user sees it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from './waitFor';

/** Before each line the harness reads as a DOM request. */
export const DOM_MARKER = '@@skills-dom ';

/** What the harness read of the first visible element that matched. */
export interface DomRead {
  /** Its rendered text (innerText). */
  text: string;
  /** The value and placeholder of each input inside it. */
  inputs: { value: string; placeholder: string }[];
  /** The labels of the buttons inside it. */
  buttons: string[];
  /** Texts of the elements inside it whose content does not fit their box (cut or ellipsised). */
  clipped: string[];
}

let next = 0;

async function ask<T>(action: 'read' | 'click' | 'count', selector: string, hasText?: string, timeoutMs = 20_000): Promise<T> {
  const file = path.join(os.tmpdir(), `skills-dom-${process.pid}-${next++}.json`);
  fs.rmSync(file, { force: true });
  console.log(`${DOM_MARKER}${JSON.stringify({ path: file, selector, hasText, action, timeoutMs })}`);
  const answer = await waitFor(`the harness to answer the DOM request ${action} ${selector}${hasText ? ` with "${hasText}"` : ''}`, () => fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as T | { error: string }), timeoutMs + 10_000);
  fs.rmSync(file, { force: true });
  if (typeof answer === 'object' && answer !== null && 'error' in answer) throw new Error(`the workbench shows no ${selector}${hasText ? ` with "${hasText}"` : ''}: ${answer.error}`);
  return answer as T;
}

/** Waits until an element matching `selector` (holding `hasText`) is visible and reads it. */
export function readUi(selector: string, hasText?: string, timeoutMs?: number): Promise<DomRead> {
  return ask<DomRead>('read', selector, hasText, timeoutMs);
}

/** Waits until an element matching `selector` (holding `hasText`) is visible and clicks it as a user would. */
export async function clickUi(selector: string, hasText?: string, timeoutMs?: number): Promise<void> {
  await ask('click', selector, hasText, timeoutMs);
}

/** How many elements matching `selector` (holding `hasText`) are visible now (no waiting). */
export async function countUi(selector: string, hasText?: string): Promise<number> {
  return (await ask<{ count: number }>('count', selector, hasText)).count;
}
