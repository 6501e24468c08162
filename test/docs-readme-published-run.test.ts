// The README's account of the published default run is held to the run
// itself (issue 44 item 7): the date it names is the published run's
// (the newest archived run whose samples are reports/lazy-startup's), and
// the duration it quotes is the one pipeline.yaml's report note gives.
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../harness/process/project-root.js';
import { sha256Hex } from '../harness/digest/sha256.js';

const root = projectRoot();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const published = join(root, 'reports', 'lazy-startup');

test("the README dates the published default run as its run.json does, and quotes the duration of pipeline.yaml's note", (t) => {
  const samples = sha256Hex(readFileSync(join(published, 'samples.csv')));
  const run = readdirSync(join(published, 'runs'))
    .sort()
    .reverse()
    .find((id) => {
      try {
        return sha256Hex(readFileSync(join(published, 'runs', id, 'samples.csv'))) === samples;
      } catch {
        return false;
      }
    });
  t.truthy(run, 'an archived run holds the published samples');
  const time = (JSON.parse(readFileSync(join(published, 'runs', run!, 'run.json'), 'utf8')) as { time: string }).time;
  // run by the README's first command (setup included) or by `pipeline run` on a set-up machine
  const sentence = /(?:first command above|`pipeline run`) on (\d{4}-\d{2}-\d{2}): (\d+ min \d+ s)/.exec(readme.replace(/\s+/g, ' '));
  t.truthy(sentence, 'the README names the run date and duration');
  t.is(sentence![1], time.slice(0, 10));
  const note = readFileSync(join(root, 'pipeline.yaml'), 'utf8').replace(/\s+/g, ' ');
  t.true(note.includes(`(${sentence![2]}`), `pipeline.yaml's note gives ${sentence![2]}`);
});
