// A pipeline.lock that is not a lock is a user error naming the file (exit 2,
// one line, no stack trace), never read as "no lock".
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, smokeProject } from './helpers/cli.js';

for (const [what, text] of [
  ['truncated JSON', '{\n  "lockVersion": 1,\n  "stages": {'],
  ['JSON of another shape', '{"version": 3}\n'],
] as const) {
  test(`a pipeline.lock holding ${what} stops run and status with exit 2 naming the file`, async (t) => {
    const dir = smokeProject();
    writeFileSync(join(dir, 'pipeline.lock'), text);
    for (const cmd of [['run', '--dry-run'], ['status']]) {
      const r = await runCli(cmd, dir);
      t.is(r.code, 2, r.stderr);
      t.regex(r.stderr.trim(), /^error: \S*pipeline\.lock: .+\(restore it from version control/);
      t.is(r.stderr.trim().split('\n').length, 1, r.stderr);
      t.notRegex(r.stderr, /\n\s+at /);
    }
    t.is(readFileSync(join(dir, 'pipeline.lock'), 'utf8'), text, 'the lock is left as it was');
  });
}
