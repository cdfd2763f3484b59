// The ids in src/extension/ids.ts and package.json's `contributes` must name the same things.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SETTING_KEYS } from '../../server/protocol';
import { COMMANDS, EXTENSION_ID, PARTICIPANT, SLASH_COMMANDS, TOOL_NAMES, VIEWS } from '../../src/extension/ids';
import { RUNTIME_SETTING_KEYS, schemas } from '../../src/extension/settingsSchema';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  contributes: {
    languageModelTools?: { name: string; modelDescription?: string; inputSchema?: unknown }[];
    chatParticipants?: { id: string; name: string; commands?: { name: string }[] }[];
    commands?: { command: string }[];
    viewsContainers?: { activitybar?: { id: string }[] };
    views?: Record<string, { id: string }[]>;
    configuration?: { properties: Record<string, { default?: unknown }> };
  };
};

describe('package.json contributes vs src/extension/ids.ts', () => {
  it('EXTENSION_ID is publisher.name', () => {
    assert.equal(EXTENSION_ID, `${manifest.publisher}.${manifest.name}`);
  });

  it('contributes every tool in TOOL_NAMES, each with a model description and an object input schema', () => {
    const tools = manifest.contributes.languageModelTools ?? [];
    for (const name of Object.values(TOOL_NAMES)) {
      const t = tools.find((x) => x.name === name);
      assert.ok(t, `package.json contributes.languageModelTools has no ${name}`);
      assert.ok((t.modelDescription ?? '').length >= 40, `${name}: modelDescription is missing or too short to guide a model`);
      assert.equal((t.inputSchema as { type?: string } | undefined)?.type, 'object', `${name}: inputSchema.type must be "object"`);
    }
  });

  it('contributes the participant with the id and name of PARTICIPANT', () => {
    const p = (manifest.contributes.chatParticipants ?? []).find((x) => x.id === PARTICIPANT.id);
    assert.ok(p, `package.json contributes.chatParticipants has no ${PARTICIPANT.id}`);
    assert.equal(p.name, PARTICIPANT.name);
  });

  it('contributes the slash commands of SLASH_COMMANDS', () => {
    const p = (manifest.contributes.chatParticipants ?? []).find((x) => x.id === PARTICIPANT.id);
    assert.deepEqual((p?.commands ?? []).map((c) => c.name), [...SLASH_COMMANDS]);
  });

  it('contributes every command of COMMANDS and nothing else under agentSkills.', () => {
    const contributed = (manifest.contributes.commands ?? []).map((c) => c.command).sort();
    assert.deepEqual(contributed, Object.values(COMMANDS).sort());
  });

  it('contributes the view container and its two views', () => {
    assert.ok(manifest.contributes.viewsContainers?.activitybar?.some((c) => c.id === VIEWS.container), `no activity bar container ${VIEWS.container}`);
    assert.deepEqual((manifest.contributes.views?.[VIEWS.container] ?? []).map((v) => v.id), [VIEWS.available, VIEWS.sessions]);
  });

  it('contributes every runtime setting with the default of its schema, and the language server settings', () => {
    const props = manifest.contributes.configuration?.properties ?? {};
    for (const [field, key] of Object.entries(RUNTIME_SETTING_KEYS)) {
      const full = `agentSkills.${key}`;
      assert.ok(props[full], `package.json does not contribute ${full}`);
      const def = schemas[field as keyof typeof schemas].parse(undefined);
      assert.deepEqual(props[full].default, def, `${full}: package.json default differs from settingsSchema.ts`);
    }
    for (const [name, key] of Object.entries(SETTING_KEYS)) {
      if (name === 'builtinSkillValidatorActive') continue; // read from chat.useAgentSkills, not a user setting
      assert.ok(props[key], `package.json does not contribute ${key} (server/protocol.ts SETTING_KEYS.${name})`);
    }
  });
});
