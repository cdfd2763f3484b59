import { Document, isMap, isScalar, parseDocument, Scalar } from 'yaml';
import { z } from 'zod';
import { parseSkillFile } from '../skill/parseSkillFile';
import { ToolError } from '../tools/toolError';

/** A frontmatter value a metadata edit may set; `null` removes the field. */
export const frontmatterValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);
export type FrontmatterValue = z.infer<typeof frontmatterValueSchema>;

/** What a metadata edit did. */
export interface FrontmatterEdit {
  text: string;
  /** `splice`: only the changed values' characters were replaced; `document`: the YAML was re-serialised (comments and order kept). */
  strategy: 'splice' | 'document';
  changed: string[];
}

const pathOf = (key: string): string[] => key.split('.');

/** A plain scalar can stay plain when the text, written bare, reads back as one plain scalar with the same characters. */
function plainOk(value: string): boolean {
  if (value === '' || value !== value.trim() || /[\r\n]/.test(value)) return false;
  const doc = parseDocument(`k: ${value}\n`);
  if (doc.errors.length || !isMap(doc.contents)) return false;
  const node = doc.contents.items[0]?.value;
  return isScalar(node) && node.type === Scalar.PLAIN && node.source === value && doc.contents.items.length === 1;
}

/** The one-line text of a replacement scalar in the style of the node it replaces, or undefined when it cannot stay on one line in that style. */
function scalarText(old: Scalar, value: string | number | boolean): string | undefined {
  const text = String(value);
  if (old.type === Scalar.BLOCK_FOLDED || old.type === Scalar.BLOCK_LITERAL) return undefined;
  if (old.type === Scalar.PLAIN || old.type === undefined) return plainOk(text) ? text : undefined;
  const s = new Scalar(text);
  s.type = old.type;
  const out = new Document(s).toString({ lineWidth: 0 }).replace(/\n$/, '');
  return out.includes('\n') ? undefined : out;
}

/**
 * Changes frontmatter fields of a SKILL.md text with yaml's Document API, on the frontmatter only: the
 * body bytes are never touched. Keys are top-level field names, or dotted paths into mappings
 * (`metadata.version`). When every change replaces an existing one-line scalar, only that value's
 * characters are replaced in its original quoting style (comments, order, spacing all stay byte-identical);
 * otherwise the document is re-serialised, which keeps comments, key order and scalar quoting.
 */
export function editFrontmatter(text: string, changes: Readonly<Record<string, FrontmatterValue>>, fileName = 'SKILL.md'): FrontmatterEdit {
  const parsed = parseSkillFile(text);
  const fm = parsed.frontmatter;
  if (!fm || fm.closeLine < 0 || !fm.yamlOk || !fm.isMapping) {
    throw new ToolError('invalid_result', `${fileName} has no well-formed YAML frontmatter mapping, so its fields cannot be edited one by one. Fix the frontmatter with a patch or replace first.`);
  }
  const keys = Object.keys(changes);
  if (keys.length === 0) throw new ToolError('invalid_input', 'The metadata edit has no fields: pass fields like {"description": "…"} (null removes a field).');
  const yamlText = fm.yaml;
  const doc = parseDocument(yamlText, { keepSourceTokens: false });

  const splices: { start: number; end: number; text: string }[] = [];
  let spliceable = true;
  for (const key of keys) {
    const value = changes[key];
    const node = doc.getIn(pathOf(key), true);
    if (value === null || Array.isArray(value) || !isScalar(node) || !node.range) {
      spliceable = false;
      break;
    }
    const out = scalarText(node, value);
    if (out === undefined) {
      spliceable = false;
      break;
    }
    splices.push({ start: node.range[0], end: node.range[1], text: out });
  }

  let newYaml: string;
  let strategy: FrontmatterEdit['strategy'];
  if (spliceable) {
    newYaml = yamlText;
    for (const s of splices.sort((a, b) => b.start - a.start)) newYaml = newYaml.slice(0, s.start) + s.text + newYaml.slice(s.end);
    strategy = 'splice';
  } else {
    for (const key of keys) {
      const value = changes[key];
      const p = pathOf(key);
      if (value === null) {
        doc.deleteIn(p);
        continue;
      }
      const node = doc.getIn(p, true);
      if (isScalar(node) && !Array.isArray(value)) node.value = String(value);
      else doc.setIn(p, doc.createNode(value));
    }
    newYaml = doc.toString({ lineWidth: 0 });
    if (/\r\n/.test(yamlText)) newYaml = newYaml.replace(/\r?\n/g, '\r\n');
    const eol = /\r\n/.test(yamlText) ? '\r\n' : '\n';
    if (!/\n$/.test(yamlText) && newYaml.endsWith(eol)) newYaml = newYaml.slice(0, -eol.length);
    strategy = 'document';
  }
  const out = text.slice(0, fm.yamlOffset) + newYaml + text.slice(fm.yamlOffset + yamlText.length);
  return { text: out, strategy, changed: keys };
}
