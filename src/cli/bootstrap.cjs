#!/usr/bin/env node
// dist/cli.js: starts the CLI bundle (dist/cli-bundle.js) with V8's code cache (dist/cli-bundle.js.cache), which
// scripts/build.mjs makes when it builds the bundle. Compiling the bundle was a fifth of every start (about 30 ms);
// with the cache V8 skips it. The cache only ever saves time:
// - V8 rejects data made by another Node version or with other flags, and the bundle is compiled as usual;
// - V8 does not check the data itself (a damaged cache crashed Node 20 in our test, and data made for another
//   source of the same length would run as that source), so the file starts with the SHA-256 of the bundle it
//   was made for and of its own data, and is used only when both match.
// AGENT_SKILLS_CODE_CACHE=report prints on stderr whether the cache was used; =write writes it (the build does).
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const MAGIC = 'agent-skills code cache 1\n';
const file = path.join(__dirname, 'cli-bundle.js');
const cacheFile = `${file}.cache`;
const mode = process.env.AGENT_SKILLS_CODE_CACHE;
const source = fs.readFileSync(file);
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
const bundleHash = sha256(source);

/** The cache's V8 data when it was made for this bundle and is intact; why not otherwise. */
function readCache() {
  let bytes;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return { why: 'absent' };
  }
  const header = MAGIC.length + 64 + 1 + 64 + 1;
  if (bytes.length <= header || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return { why: 'rejected' };
  const forBundle = bytes.toString('latin1', MAGIC.length, MAGIC.length + 64);
  const forData = bytes.toString('latin1', MAGIC.length + 65, MAGIC.length + 129);
  const data = bytes.subarray(header);
  if (forBundle !== bundleHash || forData !== sha256(data)) return { why: 'rejected' };
  return { data };
}

const cache = mode === 'write' ? { why: 'absent' } : readCache();
const script = new vm.Script(Module.wrap(source.toString('utf8')), {
  filename: file,
  cachedData: cache.data,
  // Node 20.12 and later: a dynamic import() inside the bundle loads as it would from a file.
  importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (mode === 'report') process.stderr.write(`code cache: ${cache.data === undefined ? cache.why : script.cachedDataRejected ? 'rejected' : 'accepted'}\n`);
if (mode === 'write') {
  // After the run, so the functions it compiled are in the cache too; temp file and rename, never a torn cache.
  process.once('exit', () => {
    const data = script.createCachedData();
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${bundleHash}\n${sha256(data)}\n`, 'latin1'), data]));
    fs.renameSync(tmp, cacheFile);
  });
}
const bundle = new Module(file, module);
bundle.filename = file;
const run = script.runInThisContext();
run.call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, __dirname);
