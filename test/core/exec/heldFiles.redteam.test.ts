// Issue 22, second pair of eyes: disk fill past the run folder's cap with files the script deletes but keeps open.
// The size watch walked the folders, where an unlinked file is no more, and the launcher's file-size limit holds
// one file only: six 6 MiB files written through descriptors after `rm` put 36 MiB on the disk under an 8 MiB cap,
// sandboxed or not, and the run ended normally (a thousand descriptors of 512 MiB each would fill the disk). The
// same through a shared mapping of a deleted file. Real runner, real processes, bwrap when it works here; as root
// and as the unprivileged account (which may not look into /proc/<pid>/map_files, so a mapping counts at the limit).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, onPath, sandboxWorks, setup, type Sandbox } from './helpers';

const MiB = 1024 * 1024;

describe('core/exec held files: deleted files a script keeps open count against the run cap (red team)', function () {
  let sb: Sandbox;
  let sandboxed = false;

  before(async () => {
    sb = setup();
    sandboxed = await sandboxWorks(sb);
  });
  after(() => cleanup(sb));

  function skill(name: string, file: string, text: string): string {
    const root = path.join(sb.tmp, name);
    fs.cpSync(sb.skillRoot, root, { recursive: true });
    fs.writeFileSync(path.join(root, 'scripts', file), text, { mode: 0o755 });
    return root;
  }

  // Each file stays under the 8 MiB file-size limit; together they hold 36 MiB. The script then waits, holding them.
  const byDescriptors = `cd "$WORK_DIR"
for i in 1 2 3 4 5 6; do exec {fd}>f$i; rm f$i; head -c ${6 * MiB} /dev/zero >&$fd; done
echo written; sleep 15; echo filled
`;
  // Through libc's mmap, so no descriptor stays open (Python's mmap module keeps a duplicate): only the mapping holds.
  const byMapping = `import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
os.chdir(os.environ['WORK_DIR'])
size = ${6 * MiB}
for i in range(6):
    fd = os.open('m%d' % i, os.O_RDWR | os.O_CREAT, 0o600); os.ftruncate(fd, size)
    addr = libc.mmap(None, size, 3, 1, fd, 0)  # PROT_READ|PROT_WRITE, MAP_SHARED
    os.close(fd); os.unlink('m%d' % i)
    ctypes.memset(addr, 1, size)
print('written', flush=True); time.sleep(15); print('filled')
`;

  for (const mode of ['required', 'off'] as const) {
    for (const [how, file, text] of [
      ['descriptors', 'fill.sh', byDescriptors],
      ['a shared mapping', 'fill.py', byMapping],
    ] as const) {
      it(`${mode === 'off' ? 'without a sandbox' : 'in the sandbox'}: files deleted but held through ${how} stop the script at the cap`, async function () {
        if (mode === 'required' && !sandboxed) {
          console.log('      skipped: no working sandbox here (reason printed above)');
          this.skip();
        }
        if (file.endsWith('.py') && !onPath('python3')) {
          console.log('      skipped: python3 is not installed');
          this.skip();
        }
        const name = `held-${mode}-${file.replace('.', '-')}`;
        const root = skill(name, file, text);
        const r = await sb.runner({ sandbox: mode, maxRunBytes: 8 * MiB, killGraceMs: 200 }).run({ skillName: name, skillRoot: root, script: `scripts/${file}`, timeoutMs: 30000 });
        const all = `${r.stdout}\n${r.stderr}\n${r.warnings.join('\n')}`;
        assert.equal(r.timed_out, false, all);
        assert.doesNotMatch(r.stdout, /filled/, all);
        const w = r.warnings.find((x) => x.includes('passed its size cap of 8 MiB'));
        assert.ok(w, all);
        assert.match(w, /MiB of it in files deleted but still held open or mapped/, all);
      });
    }
  }
});
