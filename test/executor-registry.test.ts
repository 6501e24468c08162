// The executor seam's one registry (executors/session-executor.ts): the schema's
// enum of executor.kind, the CLI's --executor check and the chooser all follow it,
// so a new executor is its own file, one registry entry and its schema enum entry.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXECUTOR_KINDS, sessionExecutorFor } from '../harness/executors/session-executor.js';
import { projectRoot, runCli, smokeProject } from './helpers/cli.js';

test("the executor schema's enum lists exactly the registry's kinds, in its order", (t) => {
  const schema = JSON.parse(readFileSync(join(projectRoot, 'schemas', 'executor.schema.json'), 'utf8')) as { properties: { kind: { enum: string[] } } };
  t.deepEqual(schema.properties.kind.enum, [...EXECUTOR_KINDS]);
});

test('each registered kind chooses the executor of that kind, and an unknown kind none', (t) => {
  for (const kind of EXECUTOR_KINDS) t.is(sessionExecutorFor(kind)?.kind, kind);
  t.is(sessionExecutorFor('kubernetes'), null);
  t.is(sessionExecutorFor('toString'), null, 'an Object.prototype name is no kind');
});

test('run --executor with an unknown kind is exit 2 naming the registered kinds, without a stack trace', async (t) => {
  const r = await runCli(['run', '--dry-run', '--executor', 'kubernetes'], smokeProject());
  t.is(r.code, 2, r.stderr);
  t.true(r.stderr.includes(`unknown executor 'kubernetes'`), r.stderr);
  t.true(r.stderr.includes(`use one of: ${EXECUTOR_KINDS.join(', ')}`), r.stderr);
  t.notRegex(r.stderr, /\n\s+at /);
});
