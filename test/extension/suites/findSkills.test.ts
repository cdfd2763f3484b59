// find_skills (issue 24 point 3) in the real VS Code: the Language Model Tool is registered and answers a query
// with the best matching workspace skill first, with its description, and says so when nothing matches well; in an
// @skills turn whose catalog does not fit agentSkills.catalog.maxTokens, the instructions point the scripted model
// to find_skills, its call gets the real search result, and the load_skills call that follows loads that skill.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { TOOL_NAMES } from '../../../src/extension/ids';
import { FIND_TOOL } from '../../../src/core/tools/toolNames';
import { activatedExtension } from '../helpers/extension';
import { scriptedChatModel, setScript, waitForRequests, type RecordedRequest } from '../helpers/scriptedModel';
import { activeSkillsOf, newChat } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const FIND = FIND_TOOL.name;
const RELEASE_QUERY = 'draft the notes for the new version from what changed since the last tag';
const RELEASE_DESCRIPTION = /Drafts release notes from the commits since the last tag/;

/** The text of a tool's answer as the model reads it. */
function textOf(r: vscode.LanguageModelToolResult): string {
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The skills of an <available_skills> block in the order written, with their descriptions. */
function entriesOf(text: string): { name: string; description: string }[] {
  return [...text.matchAll(/<skill>\s*<name>([^<]*)<\/name>\s*<description>([^<]*)<\/description>/g)].map((m) => ({ name: m[1], description: m[2] }));
}

/** The results of tool calls a request carries, by the called tool's name (from the assistant's call parts). */
function toolResultsOf(r: RecordedRequest, tool: string): string[] {
  const parts = r.messages.flatMap((m) => m.parts);
  const ids = new Set(parts.flatMap((p) => (p.kind === 'toolCall' && p.name === tool ? [p.callId] : [])));
  return parts.flatMap((p) => (p.kind === 'toolResult' && ids.has(p.callId) ? [p.content.join('')] : []));
}

async function find(query: string): Promise<string> {
  return textOf(await vscode.lm.invokeTool(FIND, { input: { query }, toolInvocationToken: undefined }));
}

describe('find_skills in a real VS Code', function () {
  this.timeout(120_000);
  let api: SkillsExtensionApi;

  before(async () => {
    api = (await activatedExtension()).exports as SkillsExtensionApi;
    await scriptedChatModel();
  });

  it('outside @skills leaves out, and names, the skills VS Code\'s own skill support already lists (as list_skills does)', async () => {
    const text = await find(RELEASE_QUERY);
    assert.match(text, /listed by VS Code's own skill support \(chat\.useAgentSkills\) and left out here/);
    assert.doesNotMatch(text, /<name>release-notes<\/name>/, 'a skill VS Code lists itself was offered twice');
  });

  describe('invoked directly, with agentSkills.deferToBuiltinSkills off (every workspace skill searchable)', () => {
    before(async () => {
      await vscode.workspace.getConfiguration('agentSkills').update('deferToBuiltinSkills', false, vscode.ConfigurationTarget.Workspace);
      await waitFor('find_skills to search the workspace skills', async () => /<name>release-notes<\/name>/.test(await find(RELEASE_QUERY)));
    });

    after(async () => {
      await vscode.workspace.getConfiguration('agentSkills').update('deferToBuiltinSkills', undefined, vscode.ConfigurationTarget.Workspace);
      await waitFor('the default deferToBuiltinSkills back', () => api.service.settings.deferToBuiltinSkills === true);
    });

    it('is a registered Language Model Tool that puts the best matching workspace skill first, with its description', async () => {
      const tool = vscode.lm.tools.find((t) => t.name === FIND);
      assert.ok(tool, `${FIND} is not among vscode.lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
      assert.match(tool.description, /Searches every installed Agent Skill/);

      const text = await find(RELEASE_QUERY);
      const entries = entriesOf(text);
      assert.equal(entries[0]?.name, 'release-notes', `another skill came first:\n${text}`);
      assert.match(entries[0].description, RELEASE_DESCRIPTION);
      assert.match(text, /Best first\. Scores: release-notes \d/);
      assert.match(text, new RegExp(`call ${TOOL_NAMES.load} with its name`));

      // Another query, another first match: the order follows the query, not the catalog.
      const commit = entriesOf(await find('write a message for my staged git changes'));
      assert.equal(commit[0]?.name, 'commit-message', `another skill came first: ${commit.map((e) => e.name).join(', ')}`);
    });

    it('says there is no good match for a query no skill fits, and when the closest skill shares only a word with it', async () => {
      const none = await find('calibrate the spectrometer of a telescope');
      assert.match(none, /^No installed skill matches "calibrate the spectrometer of a telescope"/, `find_skills claimed a match:\n${none}`);
      // Not because the skills were hidden: nothing was left out of the search.
      assert.doesNotMatch(none, /left out here/);
      // "tag" is in release-notes' description, and nothing else: shown as the closest, not as a good match.
      const weak = await find('tag the photos in my holiday album');
      assert.match(weak, /^No good match for "tag the photos in my holiday album"/, `find_skills called a one-word overlap a good match:\n${weak}`);
      assert.equal(entriesOf(weak)[0]?.name, 'release-notes', `the closest skill is not listed:\n${weak}`);
      assert.doesNotMatch(weak, /Best first/);
    });
  });

  // With the default settings: @skills searches every skill it may show its own conversations.
  describe('in an @skills turn whose catalog does not fit its budget', () => {
    before(async () => {
      await vscode.workspace.getConfiguration('agentSkills').update('catalog.maxTokens', 100, vscode.ConfigurationTarget.Workspace);
      await waitFor('the catalog budget of 100 tokens to apply', () => api.service.settings.catalogMaxTokens === 100);
    });

    after(async () => {
      // Later suites expect the default budget.
      await vscode.workspace.getConfiguration('agentSkills').update('catalog.maxTokens', undefined, vscode.ConfigurationTarget.Workspace);
      await waitFor('the default catalog budget back', () => api.service.settings.catalogMaxTokens === 4000);
    });

    it('points the model to find_skills; its call gets the real result and the load_skills after it loads that skill', async () => {
      await setScript([
        { toolCalls: [{ name: FIND, input: { query: RELEASE_QUERY } }] },
        { toolCalls: [{ name: TOOL_NAMES.load, input: { names: ['release-notes'] } }] },
        { text: 'Here are your release notes.' },
      ]);
      const prompt = 'greet Ada, then help me with what ships next';
      await newChat(prompt);
      const requests = await waitForRequests(3, 60_000);

      // The first call: the catalog was cut, its closing line and the offered tools point to find_skills, and the
      // skill the model will need is among those left out (so only the search can reveal it).
      const instructions = JSON.stringify(requests[0].messages[0]);
      assert.ok(requests[0].tools.some((t) => t.name === FIND), `${FIND} not offered: ${requests[0].tools.map((t) => t.name).join(', ')}`);
      assert.match(instructions, /more skills? (is|are) installed but not listed here\. Search them with find_skills/, 'the instructions do not point to find_skills');
      assert.doesNotMatch(instructions, /<name>release-notes<\/name>/, 'release-notes fit the 100-token catalog: the test proves nothing');

      // The second call carries find_skills' real answer: release-notes first, with its description.
      const [found] = toolResultsOf(requests[1], FIND);
      assert.ok(found, `no ${FIND} result in: ${JSON.stringify(requests[1].messages)}`);
      const entries = entriesOf(found);
      assert.equal(entries[0]?.name, 'release-notes', `find_skills put another skill first:\n${found}`);
      assert.match(entries[0].description, RELEASE_DESCRIPTION);

      // The third call: load_skills loaded it, so the model now has its instructions, and the session shows it.
      const [loaded] = toolResultsOf(requests[2], TOOL_NAMES.load);
      assert.ok(loaded, `no ${TOOL_NAMES.load} result in: ${JSON.stringify(requests[2].messages)}`);
      const later = requests[2].messages.flatMap((m) => m.parts).map((p) => (p.kind === 'text' ? p.value : p.kind === 'toolResult' ? p.content.join('') : '')).join('\n');
      assert.match(later, /Find the last tag/, 'the loaded skill\'s body did not reach the model');
      assert.deepEqual(await activeSkillsOf(prompt), ['release-notes']);
    });
  });
});
