/**
 * The "repeat a prefix" family of hostile texts: one short string repeated to a size, in the places a SKILL.md
 * scanner reads (the body, the whole file, a frontmatter value, a frontmatter line). `[a](` repeated made every
 * link target run to the end of the file (one 76 MB publishDiagnostics from 40 KB); each member here opens a
 * construct some scanner looks for and never closes it, or closes it at every step.
 */
export const PREFIXES: readonly string[] = [
  '[a](', '](', '![a](', '](#', '](<', '](<a', ']: ', '[a]: ', '\n[a]: ', '[//]: # (', '[a][', '[', '![', ']',
  '`', '``', '```', '```\n', ' ```\n', '~~~\n', '```!\n', '!`', '<!--', '<!-- ignore ', '-->',
  '${', '{{', '$', '$ARGUMENTS', '{#', 'id="', '#', '# ', '# a\n', '<', '<a', '</', '*', '_', '|', '\\', '(', ')',
  '---\n', '"', "'", ': ', '- ', '\t', ' ', '\n', '\r\n', '\r',
  '\u0301', 'e\u0301', '\u200b', '\u202e', '\ud83d\ude00', '\ud800', '\u001b[31m',
  'scripts/', './scripts/a ', '`scripts/a` ', 'a/', 'scripts/a*', 'TODO ', '[Insert ', 'sk-', 'AKIA', 'xoxb-', 'password: "', 'a1',
];

/** Where the repeated text goes. */
export const SHAPES: Readonly<Record<string, (repeated: string) => string>> = {
  body: (r) => `---\nname: fuzz\ndescription: Use when fuzzing the scanners.\n---\n${r}x\n`,
  whole: (r) => r,
  value: (r) => `---\nname: fuzz\ndescription: ${r}\n---\nbody\n`,
  fmLine: (r) => `---\n${r}\n---\nbody\n`,
};

/** `prefix` repeated to `size` characters (the last copy cut). */
export function repeatTo(prefix: string, size: number): string {
  return prefix.repeat(Math.ceil(size / prefix.length)).slice(0, size);
}
