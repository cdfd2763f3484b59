/**
 * Child process of test/core/edit/crash.test.ts: performs updateSkill-like writes
 * (atomic write, then revision append) and atomic skill-folder creations in an endless
 * loop until the parent SIGKILLs it. Prints "ready" once, then "w" after each completed
 * write, so the parent can pick its kill point. Usage: node crashWriter.js <workDir> <seed>
 */
import * as path from 'node:path';
// direct module imports keep the bundle small, so the child starts fast
import { createDirAtomic, writeFileAtomic } from '../../src/core/edit/atomicWrite';
import { RevisionStore } from '../../src/core/edit/revisionStore';
import { CRASH_FILES, CRASH_SKILL_ID, newSkillFiles, seededRandom, versionContent, VERSIONS } from './crashVersions';

async function main(): Promise<void> {
  const [workDir, seedArg] = process.argv.slice(2);
  const seed = Number(seedArg);
  const random = seededRandom(seed);
  const skillDir = path.join(workDir, 'skills', 'crash-demo');
  const store = new RevisionStore(path.join(workDir, 'revisions'), { inlineLimit: 4096 });
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    if (i % 3 === 1) {
      await createDirAtomic(path.join(workDir, 'skills', `new-${seed}-${i}`), newSkillFiles(`new-${seed}-${i}`));
      continue;
    }
    const file = CRASH_FILES[Math.floor(random() * CRASH_FILES.length)];
    const content = versionContent(file, Math.floor(random() * VERSIONS));
    await writeFileAtomic(path.join(skillDir, ...file.split('/')), content);
    await store.append({ skillId: CRASH_SKILL_ID, file, content, reason: `seed ${seed} write ${i}` });
    process.stdout.write('w\n');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`crashWriter failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
