import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { projectRoot, QUICK, runCli, smokeProject } from './helpers/cli.js';
import { merkleRoot } from '../harness/digest/merkle.js';
import { stageKey } from '../harness/engine/stage-key.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

test('every frozen stage has a manifest that matches the schema, its key and its output digest', async (t) => {
  const dir = smokeProject();
  const r = await runCli(['run', ...QUICK], dir);
  t.is(r.code, 0, r.stderr);
  const ajv = new Ajv2020({ strict: true });
  const validate = ajv.compile(JSON.parse(readFileSync(join(projectRoot, 'schemas', 'stage-manifest.schema.json'), 'utf8')));
  const base = join(dir, '.data', 'stages');
  let n = 0;
  for (const kind of readdirSync(base)) {
    for (const key of readdirSync(join(base, kind))) {
      const m = JSON.parse(readFileSync(join(base, kind, key, 'manifest.json'), 'utf8'));
      t.true(validate(m), JSON.stringify(validate.errors));
      t.is(m.key, key);
      t.is(stageKey(m.keyInputs), key);
      t.is(merkleRoot(m.files), m.outputDigest);
      t.is(merkleRoot(m.observationFiles), m.observationsDigest);
      n++;
    }
  }
  t.is(n, 4);
});

test('show prints the manifest of a stage of the last run', async (t) => {
  const dir = smokeProject();
  t.is((await runCli(['run', ...QUICK], dir)).code, 0);
  const r = await runCli(['show', 'analyze', ...QUICK], dir);
  t.is(r.code, 0, r.stderr);
  t.is(JSON.parse(r.stdout).kind, 'analyze');
});
