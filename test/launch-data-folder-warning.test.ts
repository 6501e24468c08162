// The data folder's carryover warning (ext4 without a journal) is for
// pipelines whose launches make files there (#47 item 8: warnings only where
// they apply): the default experiment's paths do (work folders, a private
// Docker engine), the smoke pipeline's shell commands do not.
import test from 'ava';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';
import { writesDataFolder } from '../harness/launch-arms/launch-adapter.js';

const load = (file: string) => loadPipeline(file, { knownKinds: knownStageKinds() });

test('the default experiment writes its data folder per launch; the smoke pipeline does not', (t) => {
  const main = load('pipeline.yaml');
  t.true(writesDataFolder(main.paths, main.services));
  const smoke = load('pipelines/smoke.yaml');
  t.false(writesDataFolder(smoke.paths, smoke.services));
});

test('a launch with a work folder, or a private Docker engine alone, writes the data folder; a hook’s marker file does not', (t) => {
  t.true(writesDataFolder({ p: { launch: ['x', '{workspace}'] } }, {}));
  t.false(writesDataFolder({ p: { launch: ['x'], hooks: { after_pair: [['rm', '{pair_dir}/state']] } } }, {}), 'a hook’s marker file is not many files');
  t.true(writesDataFolder({ p: { launch: ['x'] } }, { engine: { kind: 'docker-engine' } }));
  t.false(writesDataFolder({ p: { launch: ['{command}'] } }, { files: { kind: 'nginx-files' } }));
});
