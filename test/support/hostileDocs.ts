/**
 * Structured attacks on the SKILL.md parser, beside the random mutations of the fuzz tests: each one a
 * document built to cost a parser far more than its size (deep nesting, alias expansion, very long lines,
 * huge counts, invalid UTF-8). Before the parser's limits, `braces400` took 16 s and `braces50k` stalled the
 * language server for minutes.
 */
export interface HostileDoc {
  name: string;
  text: string;
}

const fm = (yaml: string, body = '# Body\n'): string => `---\n${yaml}\n---\n${body}`;
const lines = (n: number, line: (i: number) => string): string => Array.from({ length: n }, (_, i) => line(i)).join('\n');

/** An alias chain where each level refers nine times to the level below: 9^depth values once expanded. */
function aliasBomb(depth: number): string {
  const levels = [`l0: &l0 [x, x, x, x, x, x, x, x, x]`];
  for (let i = 1; i <= depth; i++) levels.push(`l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]`);
  return fm(`name: bomb\ndescription: expands\n${levels.join('\n')}`);
}

export function hostileDocs(): HostileDoc[] {
  return [
    // Deep nesting: flow, block mappings, block sequences, compact `- - -` on one line, explicit keys.
    { name: 'braces400', text: fm('{'.repeat(400)) },
    { name: 'braces50k', text: fm('{'.repeat(50_000)) },
    { name: 'brackets5k', text: fm(`name: x\ndescription: ${'['.repeat(5000)}`) },
    { name: 'closedBraces300', text: fm(`name: x\nmetadata: ${'{a: '.repeat(300)}b${'}'.repeat(300)}`) },
    { name: 'blockMaps120', text: fm(lines(120, (i) => `${' '.repeat(i)}k${i}:`)) },
    { name: 'blockSeqs120', text: fm(lines(120, (i) => `${' '.repeat(i)}-`)) },
    { name: 'compactDashes4k', text: fm(`metadata:\n  ${'- '.repeat(4000)}x`) },
    { name: 'explicitKeys4k', text: fm('? '.repeat(4000)) },
    // Alias expansion (billion laughs) and many anchors.
    { name: 'aliasBomb', text: aliasBomb(12) },
    { name: 'anchors2k', text: fm(`name: x\ndescription: y\n${lines(2000, (i) => `a${i}: &a${i} v`)}`) },
    // Very long lines: in the frontmatter, in the body, in a quoted scalar.
    { name: 'longDescription1M', text: fm(`name: x\ndescription: ${'word '.repeat(200_000)}`) },
    { name: 'longQuoted', text: fm(`name: x\ndescription: "${'\\"'.repeat(100_000)}`) },
    { name: 'longBodyLine', text: fm('name: x\ndescription: y', `${'[a](b) '.repeat(100_000)}\n`) },
    { name: 'bodyBrackets', text: fm('name: x\ndescription: y', `${'['.repeat(500_000)}\n`) },
    // Huge counts: keys, duplicate keys, flow items, collection keys, errors.
    { name: 'keys5k', text: fm(lines(5000, (i) => `k${i}: v`)) },
    { name: 'duplicateKeys2k', text: fm(lines(2000, () => 'name: x')) },
    { name: 'flowItems4k', text: fm(`name: x\nallowed-tools: [${'a, '.repeat(4000)}b]`) },
    { name: 'collectionKeys1k', text: fm(lines(1000, (i) => `? [[a${i}]]\n: v`)) },
    { name: 'anchorErrors', text: fm('&a '.repeat(2700)) },
    { name: 'bodyLines200k', text: fm('name: x\ndescription: y', '- [x](y)\n'.repeat(200_000)) },
    // Invalid UTF-8 as it arrives decoded: lone surrogates, replacement characters, NUL and control bytes.
    { name: 'loneSurrogates', text: fm(`name: x\ndescription: ${'\ud800\udfff\udc00'.repeat(10_000)}`) },
    { name: 'replacementChars', text: fm(`name: ${'\ufffd'.repeat(5000)}\ndescription: y`) },
    { name: 'controlBytes', text: fm(`name: x\ndescription: ${'\u0000\u001b\u0085\u2028'.repeat(5000)}`) },
  ];
}

/** Bytes that are not UTF-8 at all (for tests that write files): overlong forms, stray continuation bytes, 0xFF. */
export function invalidUtf8Skill(name: string): Buffer {
  return Buffer.concat([
    Buffer.from(`---\nname: ${name}\ndescription: `),
    Buffer.from([0xc0, 0xaf, 0x80, 0xbf, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
    Buffer.from('\n---\nbody\n'),
  ]);
}
