// `node scripts/lint-judgments/undeclared-commands.mjs <skill folder>...`: a measurement, not a rule (issue 25, the
// 12th missed problem). Prints, per skill, the commands its SKILL.md runs in shell code blocks (```bash/sh/shell/
// console/zsh) that are not common base tools, not installed by any install line in the skill's Markdown, not named in
// `compatibility`/`allowed-tools`, and not a file under scripts/. Used to decide whether such a rule would be precise.
import fs from 'node:fs'; import path from 'node:path';
const BASE = new Set('cd ls echo cat grep egrep sed awk find head tail sort uniq wc cp mv rm mkdir rmdir touch chmod chown ln pwd export source . set unset test [ [[ if then else fi for do done while case esac true false printf read exit return xargs tee tr cut diff env which command type sleep date basename dirname realpath readlink tar gzip gunzip zip unzip curl wget ssh scp sudo bash sh zsh time kill ps git make python python3 pip pip3 node npm npx yarn pnpm open code jq man less more file stat du df whoami uname id hostname history alias function local eval exec trap wait nohup sha256sum md5sum base64 mktemp seq yes clear'.split(' '));
const INSTALL = /(?:pip3?|uv pip|pipx|uv tool|npm|pnpm|yarn|bun|brew|apt(?:-get)?|dnf|yum|cargo|go|gem|choco|winget|scoop)\s+(?:install|add|i)\b[^\n]*|npx\s+\S+|curl[^\n]*\|\s*(?:ba)?sh/g;
const roots = process.argv.slice(2);
const out = [];
for (const skill of roots) {
  const files = []; const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (/\.(md|txt)$/i.test(e.name)) files.push(p); } };
  walk(skill);
  const text = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const skillMd = fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8');
  const compat = (skillMd.match(/^compatibility:.*$/m) ?? [''])[0] + (skillMd.match(/^allowed-tools:.*$/m) ?? [''])[0];
  const installed = (text.match(INSTALL) ?? []).join(' ');
  const cmds = new Map();
  let fence = null;
  for (const raw of skillMd.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})\s*([\w-]*)/.exec(raw);
    if (f) {
      if (fence === null) fence = /^(?:bash|sh|shell|console|zsh)$/i.test(f[2]) ? 'shell' : 'other';
      else if (!f[2]) fence = null;
      continue;
    }
    if (fence !== 'shell') continue;
    const line = raw.replace(/^\s*\$\s+/, '').trim();
    if (!line || line.startsWith('#')) continue;
    const w = line.split(/\s+/)[0].replace(/^\(|;$/g, '');
    if (!/^[a-z][\w-]*$/.test(w) || BASE.has(w) || w.length < 2) continue;
    cmds.set(w, (cmds.get(w) ?? 0) + 1);
  }
  const missing = [...cmds].filter(([w]) => !installed.includes(w) && !compat.includes(w) && !fs.existsSync(path.join(skill, 'scripts', w)));
  if (missing.length) out.push(`${skill}\t${missing.map(([w, n]) => `${w}×${n}`).join(' ')}`);
}
console.log(out.join('\n'));
console.error(`skills ${roots.length}, with an undeclared non-baseline command: ${out.length}`);
