/**
 * The saved skill index: each skill's tokens keyed by its stamp (SKILL.md digest, location and name), so a start
 * puts unchanged skills back without reading or tokenizing their bodies. One binary file: a little-endian u32
 * header length, the header as JSON (format, version, the tokenizer's fingerprint, the vocabulary, one row per
 * skill), then per skill its term ids and packed counts as u32. Reading is bounded (file size, header size,
 * counts checked against the data) and a file that fails any check is refused whole with the reason.
 */
import { createHash } from 'node:crypto';
import { indexTerms, leadParagraph, splitBody } from './indexTokens';
import { MAX_BODY_CHARS, type SavedTokens, type TermVocabulary, type TokenizedDoc } from './skillIndex';
import { CAPS } from './postingLists';

/** The file format: bump when the layout changes. */
const FORMAT = 'agent-skills-index';
const VERSION = 1;

/** Largest saved index read (a 30,000-skill catalog with long bodies is about 60 MB). */
export const MAX_INDEX_FILE_BYTES = 256 * 1024 * 1024;

/** A skill to save: its stamp and its tokens. */
export interface SkillToSave {
  stamp: string;
  doc: TokenizedDoc;
}

/** A saved skill as read back: its stamp and its tokens as ids into the file's vocabulary. */
export interface SavedSkill {
  stamp: string;
  doc: SavedTokens;
}

/** A saved index as read: the vocabulary, how many saved skills hold each term, and the skills by id. */
export interface SavedIndex {
  vocab: string[];
  df: Uint32Array;
  skills: Map<string, SavedSkill>;
}

type Row = [id: string, stamp: string, name: string, l0: number, l1: number, l2: number, l3: number, terms: number];

interface Header {
  format: string;
  version: number;
  tokenizer: string;
  vocab: string[];
  skills: Row[];
}

let fingerprint: string | undefined;

/**
 * A fingerprint of how text becomes terms (tokenizer, stemmer, stop words, field split, caps): a saved index made
 * by another tokenizer gives other terms for the same text, so it is refused rather than mixed in.
 */
export function tokenizerFingerprint(): string {
  if (fingerprint) return fingerprint;
  const probe =
    'Converting PDFs to DOCX files: the_quick brownFox jumped over-the lazy dogs, running faster. Ｆｕｌｌ café 表格处理 データ ' +
    'relational conditional hopping flies agreed generalization electricity x86_64 v2.1.0\n# Heading one\n```\n# not heading\n```\ntext';
  const { headings, text } = splitBody(probe);
  // The lead paragraph stands in for a blank description (skillIndex.ts describedAs).
  const parts = [indexTerms(probe), indexTerms(headings), indexTerms(text), indexTerms(probe, 40), indexTerms(leadParagraph(`# T\n\n${probe}`)), [String(MAX_BODY_CHARS), CAPS.join(',')]];
  fingerprint = createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
  return fingerprint;
}

/**
 * The file's bytes for `skills`, whose term ids index `vocabulary`: each term's text is looked up once, and a
 * skill's ids are renumbered into the file's vocabulary (terms in order of first use) through one array.
 */
export function encodeIndexFile(skills: readonly SkillToSave[], vocabulary: TermVocabulary): Uint8Array {
  const vocab: string[] = [];
  const idOf = new Int32Array(vocabulary.termCount).fill(-1);
  const rows: Row[] = [];
  let words = 0;
  for (const { stamp, doc } of skills) {
    const terms = doc.terms;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i];
      if (!(t >= 0 && t < idOf.length)) throw new Error(`skill ${JSON.stringify(doc.id)}: term id ${t} is outside the vocabulary`);
      if (idOf[t] < 0) {
        idOf[t] = vocab.length;
        vocab.push(vocabulary.termOf(t));
      }
    }
    const [l0, l1, l2, l3] = doc.lengths;
    rows.push([doc.id, stamp, doc.name, l0, l1, l2, l3, doc.terms.length]);
    words += 2 * doc.terms.length;
  }
  const header: Header = { format: FORMAT, version: VERSION, tokenizer: tokenizerFingerprint(), vocab, skills: rows };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const dataAt = align4(4 + json.length);
  const out = Buffer.alloc(dataAt + 4 * words);
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  const data = new Uint32Array(out.buffer, out.byteOffset + dataAt, words);
  let k = 0;
  for (const { doc } of skills) {
    const { terms, counts } = doc;
    for (let i = 0; i < terms.length; i++) data[k++] = idOf[terms[i]];
    for (let i = 0; i < terms.length; i++) data[k++] = counts[i];
  }
  return out;
}

/**
 * The skills of a saved index, by id, with their term ids checked against the vocabulary (no term text is made
 * per skill). Throws an Error saying what is wrong with a file that is not one.
 */
export function decodeIndexFile(bytes: Uint8Array): SavedIndex {
  if (bytes.byteLength > MAX_INDEX_FILE_BYTES) throw new Error(`larger than ${MAX_INDEX_FILE_BYTES} bytes`);
  if (bytes.byteLength < 4) throw new Error('too short to be a saved index');
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = buf.readUInt32LE(0);
  if (headerLength > buf.length - 4) throw new Error(`header length ${headerLength} runs past the end of the file (${buf.length} bytes)`);
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', 4, 4 + headerLength)) as Header;
  } catch (e) {
    throw new Error(`header is not JSON (${(e as Error).message})`);
  }
  if (header?.format !== FORMAT) throw new Error(`not a saved skill index (format ${JSON.stringify(header?.format)})`);
  if (header.version !== VERSION) throw new Error(`version ${JSON.stringify(header.version)}, this build reads version ${VERSION}`);
  if (header.tokenizer !== tokenizerFingerprint()) throw new Error('made by another tokenizer (an older or newer build)');
  if (!Array.isArray(header.vocab) || !Array.isArray(header.skills) || !header.vocab.every((t) => typeof t === 'string')) throw new Error('header lacks its vocabulary or skill list');
  const dataAt = align4(4 + headerLength);
  const words = (buf.length - dataAt) / 4;
  if (!Number.isInteger(words) || words < 0) throw new Error('data is not a whole number of 32-bit words');
  // The data as 32-bit words in place when the bytes are aligned for it (a file read whole is), else one copy.
  const at = buf.byteOffset + dataAt;
  const data = at % 4 === 0 ? new Uint32Array(buf.buffer, at, words) : new Uint32Array(new Uint8Array(buf.subarray(dataAt)).buffer, 0, words);
  const out = new Map<string, SavedSkill>();
  const vocabSize = header.vocab.length;
  const df = new Uint32Array(vocabSize);
  // Per term id, the last row that held it (+1): a term twice in one skill would count twice.
  const seenIn = new Int32Array(vocabSize);
  let k = 0;
  let r = 0;
  for (const row of header.skills) {
    r++;
    if (!Array.isArray(row) || row.length !== 8) throw new Error(`skill row ${r} is malformed`);
    const [id, stamp, name, l0, l1, l2, l3, n] = row;
    if (typeof id !== 'string' || typeof stamp !== 'string' || typeof name !== 'string') throw new Error(`skill row ${r} is malformed`);
    if (![l0, l1, l2, l3, n].every((x) => Number.isInteger(x) && x >= 0)) throw new Error(`skill ${JSON.stringify(id)}: lengths are not counts`);
    if (k + 2 * n > words) throw new Error(`skill ${JSON.stringify(id)}: its ${n} terms run past the end of the data`);
    for (let i = 0; i < n; i++) {
      const t = data[k + i];
      if (t >= vocabSize) throw new Error(`skill ${JSON.stringify(id)}: term id ${t} is outside the vocabulary`);
      if (seenIn[t] === r) throw new Error(`skill ${JSON.stringify(id)}: term ${JSON.stringify(header.vocab[t])} is listed twice`);
      seenIn[t] = r;
      if (data[k + n + i] === 0) throw new Error(`skill ${JSON.stringify(id)}: term ${JSON.stringify(header.vocab[t])} has no count`);
      df[t]++;
    }
    // Term ids are a view (read once, when the skill is put back); counts a copy the index keeps.
    const termIds = data.subarray(k, k + n);
    const counts = data.slice(k + n, k + 2 * n);
    k += 2 * n;
    out.set(id, { stamp, doc: { id, name, lengths: [l0, l1, l2, l3], termIds, counts } });
  }
  if (k !== words) throw new Error(`${words - k} words of data belong to no skill`);
  return { vocab: header.vocab, df, skills: out };
}

const align4 = (n: number) => (n + 3) & ~3;
