import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '../../src/core');
const FORBIDDEN = /^(vscode|vscode-languageserver(?:-[\w-]+)?|vscode-languageclient)(\/.*)?$/;
// import ... from 'x', export ... from 'x', import 'x', import('x'), require('x')
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

export function forbiddenImports(text: string): string[] {
  return [...text.matchAll(SPECIFIERS)].map((m) => m[1]).filter((s) => FORBIDDEN.test(s));
}

describe('layering: src/core never imports VS Code or LSP packages', () => {
  it('the check recognises every import form', () => {
    const sample = "import * as vscode from 'vscode';\nexport { X } from \"vscode-languageserver/node\";\nconst c = require('vscode-languageclient');\nawait import('vscode-languageserver-textdocument');\nimport 'yaml';";
    assert.deepEqual(forbiddenImports(sample), ['vscode', 'vscode-languageserver/node', 'vscode-languageclient', 'vscode-languageserver-textdocument']);
  });

  it('no file under src/core does', () => {
    const files = sourceFiles(CORE);
    assert.ok(files.length > 5, 'src/core was found and scanned');
    const offenders = files.flatMap((f) => forbiddenImports(fs.readFileSync(f, 'utf8')).map((s) => `${path.relative(CORE, f)} imports ${s}`));
    assert.deepEqual(offenders, []);
  });

  it('no file under src/core or src/cli imports from src/extension (the CLI and the MCP server are surfaces over the core)', () => {
    const roots = [CORE, path.resolve(__dirname, '../../src/cli')];
    const offenders = roots.flatMap((root) =>
      sourceFiles(root).flatMap((f) =>
        [...fs.readFileSync(f, 'utf8').matchAll(SPECIFIERS)]
          .map((m) => m[1])
          .filter((s) => s.startsWith('.') && path.resolve(path.dirname(f), s).startsWith(path.resolve(__dirname, '../../src/extension')))
          .map((s) => `${path.relative(path.resolve(__dirname, '../..'), f)} imports ${s}`),
      ),
    );
    assert.deepEqual(offenders, []);
  });
});
