/** Catalogs written for the search-order tests (no benchmark data): a two-part request, near copies, filler skills. */
import type { IndexDoc } from '../../../src/core/index';

/** Skills about other things, so that the words of the requests below are rare in the catalog. */
export function fillerSkills(n: number): IndexDoc[] {
  const topics = ['invoices', 'kubernetes', 'recipes', 'chess', 'weather', 'genomes', 'sql', 'fonts', 'maps', 'taxes', 'lasers', 'poetry'];
  const verbs = ['Plan', 'Audit', 'Render', 'Index', 'Score', 'Sort'];
  return Array.from({ length: n }, (_, i) => {
    const t = topics[i % topics.length];
    const v = verbs[i % verbs.length];
    return { id: `f:${i}`, name: `${v.toLowerCase()}-${t}-${i}`, description: `${v} ${t} for a team; keeps ${t} tidy (${i}).`, body: `# ${v} ${t}\nSteps to ${v.toLowerCase()} ${t} with the usual tools.` };
  });
}

/**
 * A request with two parts: a long one about transcribing an interview, a short one about translating subtitles.
 * Broad audio suites share many words of the long part, among the many other things their long descriptions list;
 * the subtitle skill's short description says exactly what the short part asks.
 */
export const TWO_PART_REQUEST =
  'We recorded a two hour customer interview. Transcribe the interview recording with speaker labels and timestamps, ' +
  'remove filler words from the transcript, and split the transcript by speaker and by topic so we can quote the ' +
  'speakers. Then translate the subtitles into Spanish.';

/** What each broad suite does besides (so that no two of them are near copies). */
const OWN_WORDS = [
  'radio shows, jingles, vinyl rips and tape hiss',
  'audiobooks, chapters, narration and royalty reports',
  'orchestras, concert halls, microphones and choirs',
  'video games, sound effects, foley and ambience',
  'churches, sermons, organs and livestreams',
  'classrooms, lectures, quizzes and homework',
];

export function twoPartCatalog(): IndexDoc[] {
  const broadBody = (i: number) =>
    `# Audio work ${i}\nThis toolkit handles any recording: an interview, a podcast or a meeting. It finds each speaker, ` +
    `adds timestamps, marks filler words, splits the recording by topic and by speaker, and keeps a transcript of ` +
    `the interview with speaker labels. Remove filler words from a transcript, split a transcript by speaker and by ` +
    `topic, quote the speakers of a customer interview, even a two hour recording. Variant ${i} uses tool number ${i}.`;
  const broad = ['audio-toolkit', 'podcast-studio', 'meeting-room', 'voice-lab', 'sound-desk', 'studio-helper'].map((name, i) => ({
    id: `u:${name}`,
    name,
    description:
      `All-in-one suite for ${OWN_WORDS[i]}, mixing, mastering, loudness, noise gates, equalizers and exports; it also ` +
      'handles a customer interview recording, speaker labels, timestamps and filler words.',
    body: broadBody(i + 1),
  }));
  return [
    ...fillerSkills(200),
    ...broad,
    { id: 'u:speech-to-text', name: 'speech-to-text', description: 'Transcribe an interview or any recording to a transcript with speaker labels and timestamps.' },
    { id: 'u:subtitle-translator', name: 'subtitle-translator', description: 'Translate subtitles into Spanish or another language.' },
  ];
}

/** The same PDF-merging skill installed six times (sources and forks), an email skill, and filler. */
export const COPIES_REQUEST = 'Merge the quarterly PDF reports into one PDF document, add page numbers and bookmarks, then email the merged PDF to the finance team.';

export function copiesCatalog(): IndexDoc[] {
  const merge = (id: string): IndexDoc => ({
    id,
    name: 'pdf-merge',
    description: 'Merge PDF files into one PDF document, with page numbers and bookmarks for each merged file.',
    body: '# Merging PDFs\nUse pypdf to merge the PDF files in order, then add page numbers and bookmarks to the merged PDF document.',
  });
  return [
    ...fillerSkills(200),
    ...['workspace:pdf-merge', 'user:pdf-merge', 'plugin-a:pdf-merge', 'plugin-b:pdf-merge', 'pack:pdf-merge', 'mcp:pdf-merge'].map(merge),
    { id: 'u:send-email', name: 'send-email', description: 'Email a file to a team or a person, with a short message.' },
  ];
}
