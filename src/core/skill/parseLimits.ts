import { isMap, isPair, isSeq, type Document } from 'yaml';
import { DEFAULT_MAX_READ_BYTES } from '../host/readLimits';

/**
 * Bounds on the work one frontmatter may cost. Real frontmatter is a few hundred characters, one or two
 * levels deep (the largest in the shared corpus is about 1.2 KB, and the specification caps a description
 * at 1024 characters); these limits are far above that, and low enough that a hostile file (400 nested `{`
 * once took 16 s to convert; 50,000 stalled the language server for minutes) costs at most a few hundred
 * milliseconds on a loaded machine. The YAML parser's own worst cases (thousands of duplicate keys or flow
 * items) cost up to 0.1 ms a character there, so the size limit is what bounds the parse itself.
 */
export interface FrontmatterLimits {
  /** Characters of YAML between the delimiters; above this the YAML is not parsed at all. */
  maxChars: number;
  /** Nesting of collections (a flat mapping is depth 1, `metadata:` children depth 2). */
  maxDepth: number;
  /** `[` and `{` (flow collections) in the whole frontmatter. */
  maxFlowCollections: number;
  /** YAML nodes (keys, values, items) in the whole frontmatter. */
  maxNodes: number;
  /** Aliases resolved when converting to data (the yaml package's `maxAliasCount`). */
  maxAliasCount: number;
  /**
   * CPU-time budget ({@link cpuClockMs}) for everything after the YAML parse (tree walk, conversion, field
   * ranges). Not wall-clock time: on a loaded machine a descheduled parse does no work yet its wall time runs,
   * and a wall-clock budget once refused a plain 4-line frontmatter as "too slow".
   */
  budgetMs: number;
}

/**
 * The largest SKILL.md read at all (16 MiB; the specification asks for bodies under 500 lines). A larger one
 * is reported as a finding on its skill, never read into memory: a 1.5 GB sparse file once made the whole
 * `list` fail with V8's "Cannot create a string longer than..." after taking 1.6 GB.
 */
export const MAX_SKILL_FILE_BYTES = DEFAULT_MAX_READ_BYTES;

/**
 * The most characters of a SKILL.md that validation reads (the language server and `validate` alike); the rest
 * is reported as not checked. A million characters is about 250,000 tokens, far past what any host loads, and
 * keeps one validation well under a second whatever the text holds.
 */
export const MAX_VALIDATED_CHARS = 1_000_000;

export const FRONTMATTER_LIMITS: Readonly<FrontmatterLimits> = Object.freeze({
  maxChars: 8 * 1024,
  maxDepth: 32,
  maxFlowCollections: 256,
  maxNodes: 2000,
  maxAliasCount: 100,
  budgetMs: 500,
});

/** Milliseconds of CPU this process has used (user + system): the clock the parse budget is counted on. */
export function cpuClockMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** What {@link prescan} counted. */
export interface YamlPrescan {
  /** Upper bound of the nesting the parser would build. */
  depth: number;
  /** `[` and `{` in the text: the flow collections there can be at most. */
  flows: number;
}

/**
 * Bounds of what the YAML parser would build, cheap enough to run before it (it builds the whole tree first,
 * recursively): the deepest nesting of `[` and `{` counted without regard to quotes, and the longest run of
 * `- `, `? ` or `: ` indicators opening one line (`- - - x` is three levels on one line); and the number of
 * `[` and `{`, since a flow collection costs the parser far more than a plain value (1,500 `? [[a]]: v`
 * keys took a second). Stops counting once a limit is passed.
 */
export function prescan(yaml: string, limits: Pick<FrontmatterLimits, 'maxDepth' | 'maxFlowCollections'>): YamlPrescan {
  let depth = 0;
  let max = 0;
  let flows = 0;
  let lineStart = true;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (lineStart) {
      lineStart = false;
      const run = indicatorRun(yaml, i);
      if (run > max) max = run;
    }
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      flows++;
      if (++depth > max) max = depth;
    } else if ((c === 0x5d /* ] */ || c === 0x7d /* } */) && depth > 0) depth--;
    else if (c === 0x0a) lineStart = true;
    if (max > limits.maxDepth || flows > limits.maxFlowCollections) break;
  }
  return { depth: max, flows };
}

/** How many `-`, `?` or `:` indicators, each followed by white space, open the line at `start` (after its indentation). */
function indicatorRun(s: string, start: number): number {
  let i = start;
  let run = 0;
  for (;;) {
    while (s.charCodeAt(i) === 0x20 || s.charCodeAt(i) === 0x09) i++;
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if ((c === 0x2d || c === 0x3f || c === 0x3a) && (next === 0x20 || next === 0x09)) {
      run++;
      i += 2;
    } else return run;
  }
}

/** What {@link measureTree} found; `over` names the first limit passed, if any. */
export interface TreeSize {
  depth: number;
  nodes: number;
  over?: 'depth' | 'nodes' | 'time';
}

/**
 * Walks the parsed document without recursion (a deep tree cannot overflow the stack), counting nodes and
 * nesting, and stops at the first limit passed (or when `deadline`, a {@link cpuClockMs} value, has passed).
 */
export function measureTree(doc: Document, limits: FrontmatterLimits, deadline: number): TreeSize {
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  let nodes = 0;
  let maxDepth = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || node === undefined) continue;
    nodes++;
    if (depth > maxDepth) maxDepth = depth;
    if (maxDepth > limits.maxDepth) return { depth: maxDepth, nodes, over: 'depth' };
    if (nodes > limits.maxNodes) return { depth: maxDepth, nodes, over: 'nodes' };
    if ((nodes & 255) === 0 && cpuClockMs() > deadline) return { depth: maxDepth, nodes, over: 'time' };
    if (isPair(node)) {
      // A key and its value sit at the depth of the pair's collection.
      stack.push({ node: node.key, depth }, { node: node.value, depth });
    } else if (isMap(node) || isSeq(node)) {
      for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
    }
  }
  return { depth: maxDepth, nodes };
}
