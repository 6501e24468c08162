// A run whose analyze pools the archive its own report stage writes to
// (with: replicates: reports/<experiment>/runs, as pipeline.yaml does): the
// publish archives this run there, which must not change analyze's key, or
// the engine would plan analyze again in the same run (seen in a real default
// run: "bug: stage analyze would run twice in one run", exit 1 after the
// report was published). Real smoke run, real engine.
import test from 'ava';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, runCli, smokeProject } from './helpers/cli.js';

test('a run that archives itself into the folder its analyze pools completes, and the rerun reuses every stage', async (t) => {
  const dir = smokeProject({
    replace: '  - id: analyze\n    uses: analyze\n    needs: [sample]\n',
    with: '  - id: analyze\n    uses: analyze\n    needs: [sample]\n    with: { replicates: reports/smoke/runs }\n',
  });
  mkdirSync(join(dir, 'reports', 'smoke', 'runs'), { recursive: true }); // the archive exists, empty, as in a fresh clone of a project that publishes
  const first = await runCli(['run', ...QUICK], dir);
  t.is(first.code, 0, first.stderr);
  t.false(first.stderr.includes('would run twice'));
  t.is(readdirSync(join(dir, 'reports', 'smoke', 'runs')).length, 1, 'the run archived itself');
  const second = await runCli(['run', ...QUICK], dir);
  t.is(second.code, 0, second.stderr);
  t.regex(second.stdout + second.stderr, /0 ran/);
});
