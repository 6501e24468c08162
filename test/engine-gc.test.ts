import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, runCli, smokeProject } from './helpers/cli.js';

test('gc removes frozen outputs the lock file no longer references and keeps the rest', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', ...QUICK], dir)).code, 0);
  t.is((await runCli(['run', ...QUICK, '--set', 'analysis.bootstrap.resamples=300'], dir)).code, 0);
  const count = (kind: string): number => readdirSync(join(dir, '.data', 'stages', kind)).length;
  t.is(count('analyze'), 2);
  const r = await runCli(['gc'], dir);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /removed 2 unreferenced stage outputs, kept 4/);
  t.is(count('analyze'), 1);
  const again = await runCli(['run', '--json', ...QUICK, '--set', 'analysis.bootstrap.resamples=300'], dir);
  t.regex(again.stdout, /"action":"reused"/);
  t.notRegex(again.stdout, /"action":"ran"/);
});
