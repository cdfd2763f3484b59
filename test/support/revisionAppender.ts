/**
 * Child process of test/core/edit/revisionStoreProcesses.test.ts: appends `count` records for one skill to
 * the revision store at `<root>`, as fast as it can, then prints "done". Usage: node revisionAppender.js <root> <tag> <count>
 */
import { RevisionStore } from '../../src/core/edit/revisionStore';

async function main(): Promise<void> {
  const [root, tag, count] = process.argv.slice(2);
  const store = new RevisionStore(root, { inlineLimit: 64 });
  for (let i = 0; i < Number(count); i++) {
    // Every third content is larger than the inline limit, so blobs are written concurrently too.
    const content = i % 3 === 0 ? `${tag} ${i}\n${'x'.repeat(100)}\n` : `${tag} ${i}\n`;
    await store.append({ skillId: 'plugin:acme.tools:shared', file: `notes/${tag}.md`, content, reason: `${tag} write ${i}` });
  }
  process.stdout.write('done\n');
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
