/**
 * How the skill index reads text: lowercase (NFKC) word tokens with English stop words dropped and Porter stems
 * for a-z words; identifiers are split (`pdf_to_docx`, `camelCase`, `kebab-case` give their parts); runs of
 * CJK characters, which have no spaces, give overlapping character pairs. The index and every query use this
 * one reading, so a word is stemmed the same way on both sides.
 */
import { porterStem } from './porterStemmer';

/** Words that carry no topic in a request or a description (general English function words, nothing catalog-specific). */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either etc every few for from further get gets got had has have having he her here ' +
    'hers him his how however i if in into is it its itself just let like may me might more most much must my need needs no nor not now ' +
    'of off on once one only or other our ours out over own per please same shall she should so some such than that the their theirs them ' +
    'then there these they this those through thus to too under until up upon us use used uses using very via want was we well were what ' +
    'when where whether which while who whom whose why will with within without would yes yet you your yours'
  ).split(' '),
);

/** Most characters of one text the index reads (a longer description or body is read up to here). */
export const MAX_FIELD_CHARS = 40_000;

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/** One text as index terms, in order (stop words and one-letter words dropped). */
export function indexTerms(text: string, maxChars = MAX_FIELD_CHARS): string[] {
  const out: string[] = [];
  let src = text.length > maxChars ? text.slice(0, maxChars) : text;
  const ascii = !NON_ASCII.test(src);
  if (!ascii) src = src.normalize('NFKC');
  // camelCase splits an identifier into its words; then one lowercase copy and one split.
  src = src.replace(CAMEL, '$1 $2').toLowerCase();
  for (const w of src.split(ascii ? ASCII_SEPARATORS : SEPARATORS)) {
    if (!w) continue;
    if (!ascii && CJK.test(w)) pushCjk(w, out);
    else pushWord(w, out);
  }
  return out;
}

const NON_ASCII = /[^\x00-\x7f]/;
const CAMEL = /([a-z])([A-Z])/g;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

// Each word already seen → its term ('' for a stop word): word frequencies are skewed, so most words of a new
// text are answered by one lookup.
const seen = new Map<string, string>();
const MAX_SEEN = 200_000;

function pushWord(w: string, out: string[]): void {
  let s = seen.get(w);
  if (s === undefined) {
    if (seen.size >= MAX_SEEN) seen.clear();
    s = w.length < 2 || STOP_WORDS.has(w) ? '' : w.length > 40 ? w.slice(0, 40) : porterStem(w);
    seen.set(w, s);
  }
  if (s) out.push(s);
}

/** A run of CJK text: each character pair (and a lone character on its own). */
function pushCjk(run: string, out: string[]): void {
  let cjk = '';
  const flush = () => {
    if (cjk.length === 1) out.push(cjk);
    for (let i = 0; i + 1 < cjk.length; i++) out.push(cjk.slice(i, i + 2));
    cjk = '';
  };
  for (const ch of run) {
    if (CJK.test(ch)) cjk += ch;
    else {
      flush();
    }
  }
  flush();
  // Latin letters or digits mixed into the run are words of their own.
  for (const w of run.split(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/u)) if (w) pushWord(w, out);
}

/** True for a word the index never keeps on its own. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}

/** Adjacent term pairs (`a b`), the index's phrase feature. */
export function termPairs(terms: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < terms.length; i++) if (terms[i] !== terms[i + 1]) out.push(`${terms[i]} ${terms[i + 1]}`);
  return out;
}

/** A skill body's Markdown headings (lines starting with `#`) and the rest, each joined as one text. */
export function splitBody(body: string, maxChars = MAX_FIELD_CHARS): { headings: string; text: string } {
  const src = body.length > maxChars ? body.slice(0, maxChars) : body;
  const headings: string[] = [];
  const text: string[] = [];
  let fenced = false;
  for (const line of src.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && /^#{1,6}\s/.test(line)) headings.push(line.replace(/^#+\s*/, ''));
    else text.push(line);
  }
  return { headings: headings.join('\n'), text: text.join('\n') };
}

/** Most characters of a body's lead paragraph read in place of a missing description (the spec's description limit). */
export const MAX_LEAD_CHARS = 1024;

/**
 * A body's lead paragraph: its first paragraph of prose (headings, blank lines and fenced code before it skipped),
 * up to {@link MAX_LEAD_CHARS}. The index reads it as the description of a skill whose frontmatter gives none: a
 * skill's first paragraph is where its author says what it is for, and without it the skill is matched by its
 * body alone, at the body's weight.
 */
export function leadParagraph(body: string, maxChars = MAX_FIELD_CHARS): string {
  const src = body.length > maxChars ? body.slice(0, maxChars) : body;
  const out: string[] = [];
  let length = 0;
  let fenced = false;
  for (const line of src.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (out.length) break;
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (/^#{1,6}\s/.test(line) || !line.trim()) {
      if (out.length) break;
      continue;
    }
    out.push(line.trim());
    length += line.length + 1;
    if (length >= MAX_LEAD_CHARS) break;
  }
  const lead = out.join(' ');
  return lead.length > MAX_LEAD_CHARS ? lead.slice(0, MAX_LEAD_CHARS) : lead;
}

