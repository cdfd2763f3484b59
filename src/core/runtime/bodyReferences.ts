import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside } from './skillPaths';

/** A file the SKILL.md body mentions, resolved under the skill root (seed 002's progressive loading). */
export interface BodyReference {
  /** Path relative to the skill root, `/`-separated. */
  path: string;
  /** Where the body mentions it. */
  via: 'link' | 'inline-code' | 'code-block';
  size_bytes: number;
  kind: 'file' | 'directory';
}

// A token that looks like a relative file path: has a slash or a file extension, no scheme.
const PATHLIKE = /^(?:\.\/)?[\w@][\w.@+-]*(?:\/[\w.@+-]+)*\/?$/;

function candidates(body: string): { text: string; via: BodyReference['via'] }[] {
  const out: { text: string; via: BodyReference['via'] }[] = [];
  const withoutFences = body.replace(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm, (_m, _f: string, code: string) => {
    for (const token of code.split(/[\s"'`=(),;<>|]+/)) out.push({ text: token, via: 'code-block' });
    return '';
  });
  for (const m of withoutFences.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ text: m[1], via: 'link' });
  for (const m of withoutFences.matchAll(/`([^`\n]+)`/g)) {
    for (const token of m[1].split(/\s+/)) out.push({ text: token, via: 'inline-code' });
  }
  return out;
}

/**
 * Finds the files the body refers to by Markdown links, inline code and code blocks, keeps those
 * that exist inside the skill root, and returns them once each in order of first mention.
 * The lexical rules are deliberately loose: a mention only counts when the file really exists.
 */
export async function resolveBodyReferences(body: string, rootDir: string, limit = 100): Promise<BodyReference[]> {
  const root = await fs.promises.realpath(rootDir);
  const seen = new Set<string>();
  const found: BodyReference[] = [];
  for (const c of candidates(body)) {
    if (found.length >= limit) break;
    let text = c.text.split('#')[0].split('?')[0];
    if (!text || /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('/')) continue;
    try {
      text = decodeURI(text);
    } catch {
      continue;
    }
    if (!PATHLIKE.test(text) || !(text.includes('/') || /\.\w{1,8}$/.test(text))) continue;
    const abs = path.resolve(root, text);
    if (!isInside(root, abs)) continue;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (!rel || seen.has(rel) || rel.toLowerCase() === 'skill.md') continue;
    seen.add(rel);
    try {
      const real = await fs.promises.realpath(abs);
      if (!isInside(root, real)) continue;
      const st = await fs.promises.stat(real);
      found.push({ path: rel, via: c.via, size_bytes: st.isFile() ? st.size : 0, kind: st.isDirectory() ? 'directory' : 'file' });
    } catch {
      // Mentioned but absent: not offered to the model.
    }
  }
  return found;
}
