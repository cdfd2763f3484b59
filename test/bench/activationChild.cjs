// One measurement in a fresh process (so nothing is cached): `require` the bundle, and with `activate`
// also run activate() and wait for the skill catalog to be ready (the Skills tree's first answer).
// Prints the milliseconds as JSON.
'use strict';
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const [mode, bundle, workspace, storage] = process.argv.slice(2);
const shimPath = path.join(__dirname, 'vscodeShim.cjs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? shimPath : resolve.call(this, request, ...rest);
};
const vscode = require(shimPath);
vscode.__setWorkspaceFolders([workspace]);
(async () => {
  const t0 = performance.now();
  const ext = require(bundle);
  const required = performance.now() - t0;
  if (mode !== 'activate') return console.log(JSON.stringify({ required }));
  const memento = { get: (_k, d) => d, update: async () => undefined, keys: () => [] };
  fs.mkdirSync(storage, { recursive: true });
  const context = {
    subscriptions: [],
    extensionPath: path.dirname(path.dirname(bundle)),
    asAbsolutePath: (p) => path.join(path.dirname(path.dirname(bundle)), p),
    storageUri: vscode.Uri.file(storage),
    globalStorageUri: vscode.Uri.file(storage),
    workspaceState: memento,
    globalState: memento,
  };
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const api = ext.activate(context);
  const activated = performance.now() - t1;
  // Catalog ready: the skills scanned, as the Skills view and list_skills wait for it.
  await api.service.registryReady();
  const ready = performance.now() - t1;
  const cpu = process.cpuUsage(c1);
  const readyCpu = (cpu.user + cpu.system) / 1000;
  const tree = await vscode.commands.executeCommand('agentSkills.describeTree');
  const skills = JSON.stringify(tree.available).match(/"contextValue":"skill\./g)?.length ?? 0;
  api.service.dispose();
  console.log(JSON.stringify({ required, activated, ready, readyCpu, skills }));
})();
