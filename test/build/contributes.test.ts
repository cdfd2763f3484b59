// The ids in src/extension/ids.ts and package.json's `contributes` must name the same things.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXTENSION_ID, PARTICIPANT, TOOL_NAMES } from '../../src/extension/ids';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  contributes: { languageModelTools?: { name: string; modelDescription?: string; inputSchema?: unknown }[]; chatParticipants?: { id: string; name: string }[] };
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
});
