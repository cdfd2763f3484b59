import { editDistance } from '../similarPaths';
import { rule, type RuleInfo } from './ruleInfo';

/** Rules about `license`: the file it names must ship, and an SPDX id must be spelt right. They run with the file rules. */
export const LICENSE_RULES: readonly RuleInfo[] = [
  rule('license-file-missing', 'warning', 'warning', '`license` names a file (`LICENSE`, `LICENSE.txt`) the skill does not ship.',
    'The specification lets `license` name a licence file bundled with the skill. A skill is installed on its own, without the repository around it, so a file left at the repository root is not there: copy the licence file into the skill folder, or write an SPDX id (`MIT`, `Apache-2.0`).'),
  rule('license-unknown', 'info', 'info', '`license` holds a word that is almost, but not exactly, an SPDX licence id (`SD-3-Clause`).',
    'Tools that read licences match SPDX ids exactly; a misspelt id reads as no licence. Use the id the message suggests.'),
];

/** SPDX ids that skills use (from spdx.org/licenses), for the near-miss check. */
export const SPDX_IDS: readonly string[] = [
  '0BSD', 'AFL-3.0', 'AGPL-3.0', 'AGPL-3.0-only', 'AGPL-3.0-or-later', 'Apache-1.1', 'Apache-2.0', 'Artistic-2.0', 'BSD-1-Clause', 'BSD-2-Clause',
  'BSD-3-Clause', 'BSD-3-Clause-Clear', 'BSD-4-Clause', 'BSL-1.0', 'CC-BY-3.0', 'CC-BY-4.0', 'CC-BY-NC-4.0', 'CC-BY-NC-SA-4.0', 'CC-BY-ND-4.0',
  'CC-BY-SA-3.0', 'CC-BY-SA-4.0', 'CC0-1.0', 'CDDL-1.0', 'ECL-2.0', 'EPL-1.0', 'EPL-2.0', 'EUPL-1.2', 'GPL-2.0', 'GPL-2.0-only', 'GPL-2.0-or-later',
  'GPL-3.0', 'GPL-3.0-only', 'GPL-3.0-or-later', 'ISC', 'LGPL-2.1', 'LGPL-2.1-only', 'LGPL-2.1-or-later', 'LGPL-3.0', 'LGPL-3.0-only',
  'LGPL-3.0-or-later', 'MIT', 'MIT-0', 'MPL-1.1', 'MPL-2.0', 'MS-PL', 'MS-RL', 'MulanPSL-2.0', 'NCSA', 'ODbL-1.0', 'OFL-1.1', 'OSL-3.0', 'PostgreSQL',
  'Python-2.0', 'Unlicense', 'UPL-1.0', 'Vim', 'W3C', 'WTFPL', 'Zlib', 'ZPL-2.1',
];

/**
 * The file `license` names, if it names one: a word like `LICENSE`, `LICENSE.txt`, `COPYING`, `licenses/x.md`
 * (a licence word in capitals, or any word with a text extension and a licence word). Prose such as
 * "MIT License" or "see the licence" names no file.
 */
export function licenseFileNamed(value: string): string | undefined {
  for (const word of value.split(/[\s,;()]+/)) {
    const w = word.replace(/^["'`]+|["'`.:]+$/g, '').replace(/^\.\//, '');
    // A URL points to the licence online: no file is expected in the skill.
    if (!w || /^[a-z][a-z0-9+.-]*:|^www\./i.test(w)) continue;
    const base = w.slice(w.lastIndexOf('/') + 1);
    if (/^(?:LICEN[CS]E|COPYING|NOTICE)(?:[-_.][\w.-]*)?$/.test(base)) return w;
    if (/(?:licen[cs]e|copying)/i.test(base) && /\.(?:txt|md|markdown|rst)$/i.test(base)) return w;
  }
  return undefined;
}

/** The SPDX id a word of `value` misspells (one or two edits away, not an id itself), with the word; or undefined. */
export function licenseTypo(value: string): { word: string; id: string } | undefined {
  for (const word of value.split(/[\s,;()]+/)) {
    const w = word.replace(/^["'`]+|["'`.:]+$/g, '');
    // Only words shaped like ids (a hyphen or digit, a letter) are candidates: "license" or "see" never are.
    if (w.length < 3 || !/[-\d]/.test(w) || !/[A-Za-z]/.test(w) || /^(?:AND|OR|WITH)$/.test(w)) continue;
    if (SPDX_IDS.some((id) => id.toLowerCase() === w.toLowerCase())) continue;
    const near = SPDX_IDS.filter((id) => editDistance(id.toLowerCase(), w.toLowerCase(), 2) <= 2);
    if (near.length === 0) continue;
    // The nearest id; among equally near ones, the one sharing the longest start (`Apache-2.1` is `Apache-2.0`, not `Apache-1.1`).
    const lw = w.toLowerCase();
    const prefix = (id: string) => {
      let i = 0;
      while (i < id.length && id[i].toLowerCase() === lw[i]) i++;
      return i;
    };
    const best = near.map((id) => ({ id, d: editDistance(id.toLowerCase(), lw, 2), p: prefix(id) })).sort((a, b) => a.d - b.d || b.p - a.p)[0].id;
    return { word: w, id: best };
  }
  return undefined;
}
