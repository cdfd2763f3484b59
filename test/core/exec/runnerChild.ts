// A runner in a process of its own, for tests that need one: what it inherited (descriptors) or how it
// ends (killed mid-run). Usage: node --import tsx runnerChild.ts '<json>' where the JSON holds the runner
// options (`options`) and one request (`request`); it prints the run's result as one JSON line.
// `keepInherited` (optional): close every descriptor inherited without close-on-exec except these first, so a
// test decides exactly what the runner holds whatever the shell that started the suite passed on.
import * as fs from 'node:fs';
import { createScriptRunner, ScriptRunError } from '../../../src/core/exec';
import { inheritedFds } from '../../../src/core/exec/descriptors';

const { options, request, keepInherited } = JSON.parse(process.argv[2]) as { options: Parameters<typeof createScriptRunner>[0]; request: Parameters<ReturnType<typeof createScriptRunner>['run']>[0]; keepInherited?: number[] };
if (keepInherited) for (const fd of inheritedFds()) if (!keepInherited.includes(fd)) fs.closeSync(fd);
createScriptRunner(options)
  .run(request)
  .then(
    (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
    (e: unknown) => {
      process.stdout.write(`${JSON.stringify({ error: e instanceof ScriptRunError ? e.code : 'thrown', message: (e as Error).message })}\n`);
    },
  );
