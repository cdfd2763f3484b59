import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourceFiles, SCRIPT_FILE, IMPORT_SPECIFIERS as SPECIFIERS } from '../support/sourceFiles';

const CORE = path.resolve(__dirname, '../../src/core');
const FORBIDDEN = /^(vscode|vscode-languageserver(?:-[\w-]+)?|vscode-languageclient)(\/.*)?$/;
// import ... from 'x', export ... from 'x', import 'x', import('x'), require('x')

export function forbiddenImports(text: string): string[] {
  return [...text.matchAll(SPECIFIERS)].map((m) => m[1]).filter((s) => FORBIDDEN.test(s));
}

describe('layering: src/core never imports VS Code or LSP packages', () => {
  it('the check recognises every import form', () => {
    const sample = "import * as vscode from 'vscode';\nexport { X } from \"vscode-languageserver/node\";\nconst c = require('vscode-languageclient');\nawait import('vscode-languageserver-textdocument');\nimport 'yaml';";
    assert.deepEqual(forbiddenImports(sample), ['vscode', 'vscode-languageserver/node', 'vscode-languageclient', 'vscode-languageserver-textdocument']);
  });

  it('no file under src/core does', () => {
    const files = sourceFiles(CORE, SCRIPT_FILE);
    assert.ok(files.length > 5, 'src/core was found and scanned');
    const offenders = files.flatMap((f) => forbiddenImports(fs.readFileSync(f, 'utf8')).map((s) => `${path.relative(CORE, f)} imports ${s}`));
    assert.deepEqual(offenders, []);
  });

  it('no file under src/core or src/cli imports from src/extension (the CLI and the MCP server are surfaces over the core)', () => {
    const roots = [CORE, path.resolve(__dirname, '../../src/cli')];
    const offenders = roots.flatMap((root) =>
      sourceFiles(root, SCRIPT_FILE).flatMap((f) =>
        [...fs.readFileSync(f, 'utf8').matchAll(SPECIFIERS)]
          .map((m) => m[1])
          .filter((s) => s.startsWith('.') && path.resolve(path.dirname(f), s).startsWith(path.resolve(__dirname, '../../src/extension')))
          .map((s) => `${path.relative(path.resolve(__dirname, '../..'), f)} imports ${s}`),
      ),
    );
    assert.deepEqual(offenders, []);
  });
});
