// What updateSkill refuses in an untrusted workspace (src/extension/tools/workspaceTrust.ts imports nothing of VS
// Code, so it is tested here): a skill of a source kind kept in the opened folders, asked of the kind (its
// `inWorkspace`), not of the literal prefix `workspace:`.
import * as assert from 'node:assert/strict';
import { registerSourceKind } from '../../src/core/sources';
import { workspaceWriteRefusal } from '../../src/extension/tools/workspaceTrust';

describe('updateSkill in an untrusted workspace', () => {
  it('refuses changing a workspace skill, creating or copying into the workspace; leaves user and plugin skills alone', () => {
    assert.match(workspaceWriteRefusal({ action: 'patch', skill: 'workspace:pdf' }, true)?.message ?? '', /may not change workspace:pdf: this workspace is not trusted/);
    assert.equal(workspaceWriteRefusal({ action: 'create', scope: 'workspace' }, true)?.code, 'untrusted_workspace');
    assert.equal(workspaceWriteRefusal({ action: 'copy', toScope: 'workspace', skill: 'user:pdf' }, true)?.code, 'untrusted_workspace');
    for (const skill of ['user:pdf', 'plugin:acme.tools:pdf', 'pack:tools:x', 'pdf', 'workspacex:pdf']) assert.equal(workspaceWriteRefusal({ action: 'patch', skill }, true), undefined, skill);
    assert.equal(workspaceWriteRefusal({ action: 'patch', skill: 'workspace:pdf' }, false), undefined, 'a trusted workspace refuses nothing');
  });

  it('refuses a skill of any kind kept in the opened folders, whatever its id prefix', () => {
    const reg = registerSourceKind({ name: 'folder-kit', rank: 0.5, readOnly: false, label: 'Folder kits', idPrefix: 'kit', idHasSource: false, scopeWord: 'kit', inWorkspace: true });
    try {
      assert.equal(workspaceWriteRefusal({ action: 'patch', skill: 'kit:pdf' }, true)?.code, 'untrusted_workspace');
    } finally {
      reg.dispose();
    }
    assert.equal(workspaceWriteRefusal({ action: 'patch', skill: 'kit:pdf' }, true), undefined, 'gone with its kind');
  });
});
