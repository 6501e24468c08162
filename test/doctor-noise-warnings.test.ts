import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataFilesystem, deletionCarryoverRisk } from '../harness/process/data-filesystem.js';
import { readHostFingerprint } from '../harness/process/host-fingerprint.js';
import { noiseWarnings } from '../harness/process/noise-warnings.js';
import { HOST } from './helpers/history-runs.js';
import { projectRoot, runCli } from './helpers/cli.js';

test('a powersave governor, boost, SMT and no isolcpus are each warned about with a remedy (made-up fingerprint, our own rule)', (t) => {
  const w = noiseWarnings({ ...HOST, governor: 'powersave', boost: 'on', smt: 'on', isolcpus: '', virtualization: 'none' });
  t.deepEqual(
    w.map((x) => x.setting),
    ['cpu governor', 'boost/turbo', 'SMT', 'isolcpus'],
  );
  t.regex(w[0]!.remedy, /cpupower frequency-set -g performance/);
  t.regex(w[3]!.remedy, /isolcpus=/);
});

test('a quiet bare-metal fingerprint with the performance governor and isolated CPUs gets no warning (made-up fingerprint, our own rule)', (t) => {
  t.deepEqual(noiseWarnings({ ...HOST, governor: 'performance', boost: 'off', smt: 'off', isolcpus: '1', virtualization: 'none', steal: 'none' }), []);
});

test('doctor prints this host’s noise warnings, one per setting the host fingerprint shows, and the data folder’s file system when deletions carry over on it', async (t) => {
  const r = await runCli(['doctor', '--quiet'], projectRoot);
  const fs = dataFilesystem(existsSync(join(projectRoot, '.data')) ? join(projectRoot, '.data') : projectRoot);
  const expected = [
    ...noiseWarnings(readHostFingerprint({ dataDir: '.data' })).map((w) => w.setting),
    ...(fs && deletionCarryoverRisk(fs, 'the data folder') ? ['data file system'] : []),
  ];
  t.regex(r.stdout, /host settings known to add noise/);
  const printed = [...r.stdout.matchAll(/^warn {4}(.+?) {2}/gm)].map((m) => m[1]!.trim());
  t.deepEqual(printed, expected);
});
