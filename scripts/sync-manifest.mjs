// Keeps package.json's `contributes.languageModelTools` equal to what the code declares
// (src/extension/tools/toolManifest.ts: names, reference names, descriptions, zod-generated schemas).
// Usage: node --import tsx scripts/sync-manifest.mjs [--check]
// Only that array's text is replaced; the rest of package.json is left byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { toolContributions } = await import('../src/extension/tools/toolManifest.ts');
const file = join(root, 'package.json');
const text = readFileSync(file, 'utf8');
const expected = toolContributions();
const current = JSON.parse(text).contributes?.languageModelTools;

if (process.argv.includes('--check')) {
  if (isDeepStrictEqual(current, expected)) {
    console.log('package.json languageModelTools match the code.');
    process.exit(0);
  }
  console.error('package.json languageModelTools differ from the code; run: node --import tsx scripts/sync-manifest.mjs');
  process.exit(1);
}

/** [start, end) of the JSON array that follows `"languageModelTools":`, skipping strings. */
function arraySpan(src) {
  const key = src.indexOf('"languageModelTools"');
  if (key < 0) return undefined;
  const start = src.indexOf('[', key);
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === '"') {
      for (i++; src[i] !== '"'; i++) if (src[i] === '\\') i++;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return [start, i + 1];
    }
  }
  return undefined;
}

const span = arraySpan(text);
if (!span) {
  console.error('package.json has no contributes.languageModelTools array; add "languageModelTools": [] under contributes first.');
  process.exit(1);
}
const indent = '    ';
const body = JSON.stringify(expected, null, 2).split('\n').map((l, i) => (i === 0 ? l : indent + l)).join('\n');
writeFileSync(file, text.slice(0, span[0]) + body + text.slice(span[1]));
console.log(`package.json: wrote ${expected.length} languageModelTools.`);
