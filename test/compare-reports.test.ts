import test from 'ava';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusOf } from '../harness/compare/compare-reports.js';
import { fingerprintChanges } from '../harness/process/fingerprint-diff.js';
import type { HostFingerprint } from '../harness/process/host-fingerprint.js';
import { HOST } from './helpers/history-runs.js';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

const published = join(projectRoot, 'reports', 'lazy-startup');

/**
 * A report folder in today's format (the headers of the published report) with fixed conclusions of
 * our own, so the tests do not depend on the published figures: docker − oci-full detected in every
 * cell of both cohorts, oci-full − lazy warm not detected.
 */
function copyReport(name: string): string {
  const dir = join(tempDir('benchgraph-compare-'), name);
  mkdirSync(dir);
  const header = (file: string): string[] => readFileSync(join(published, file), 'utf8').split('\n')[0]!.split(',');
  const diffColumns = header('differences.csv');
  const statColumns = header('statistics.csv');
  const byName = (columns: string[], row: Record<string, string>): string => columns.map((c) => row[c] ?? '').join(',');
  const interval = (value: string, low: string, high: string, detected: boolean): Record<string, string> => ({
    value,
    low,
    high,
    confidence: '0.95',
    resamples: '5000',
    n: '30',
    detected: String(detected),
  });
  const diff: string[] = [diffColumns.join(',')];
  const stats: string[] = [statColumns.join(',')];
  for (const cohort of ['numpy', 'shell']) {
    for (const state of ['cold', 'warm']) {
      for (const metric of ['ready', 'completion']) {
        const cell = { kind: 'median_difference', cohort, state, metric, unit: 'ms' };
        const dockerMinusOci = state === 'cold' ? interval('-6632.4', '-6697.7', '-6499.3', true) : interval('127.2', '124.8', '129.1', true);
        const ociMinusLazy = state === 'cold' ? interval('8746.0', '8637.0', '8807.2', true) : interval('-1.6', '-4.5', '0.8', false);
        diff.push(byName(diffColumns, { ...cell, a: 'docker', b: 'oci-full', ...dockerMinusOci }));
        diff.push(byName(diffColumns, { ...cell, a: 'oci-full', b: 'lazy', ...ociMinusLazy }));
        for (const path of ['docker', 'oci-full', 'lazy']) {
          stats.push(byName(statColumns, { cohort, path, state, metric, unit: 'ms', p50: path === 'lazy' ? '183.4' : '2297.0' }));
        }
      }
    }
  }
  diff.push(
    byName(diffColumns, {
      kind: 'preparation',
      service: 'registry',
      artifact: 'debian-minbase',
      operation: 'push OCI image into the registry mirror (skopeo copy)',
      unit: 's',
      value: '0.480',
      n: '1',
    }),
  );
  writeFileSync(join(dir, 'differences.csv'), diff.join('\n') + '\n');
  writeFileSync(join(dir, 'statistics.csv'), stats.join('\n') + '\n');
  return dir;
}

/** Rewrites differences.csv rows that match `where` (by header name) with `edit`. */
function editDifferences(folder: string, where: (r: Record<string, string>) => boolean, edit: (r: Record<string, string>) => void): void {
  const file = join(folder, 'differences.csv');
  const [head, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const header = head!.split(',');
  const out = lines.map((line) => {
    const r = Object.fromEntries(line.split(',').map((v, i) => [header[i]!, v]));
    if (where(r)) edit(r);
    return header.map((h) => r[h] ?? '').join(',');
  });
  writeFileSync(file, [header.join(','), ...out].join('\n') + '\n');
}

const dockerVsOciCold = (r: Record<string, string>): boolean =>
  r['kind'] === 'median_difference' && r['a'] === 'docker' && r['b'] === 'oci-full' && r['state'] === 'cold';

function reverse(r: Record<string, string>): void {
  const [value, low, high] = [r['value']!, r['low']!, r['high']!].map(Number) as [number, number, number];
  r['value'] = String(-value);
  r['low'] = String(-high);
  r['high'] = String(-low);
}

test('the published report compared with itself holds every conclusion and exits 0', async (t) => {
  const r = await runCli(['compare', published, published], projectRoot);
  t.is(r.code, 0, r.stderr);
  t.regex(
    r.stdout,
    /\n(?:the same host class \(every canary piece within its run-to-run spread\); )?(\d+) of \1 conclusions held in direction, \1 in magnitude, \1 in both; every cell ×1\.00 \[1\.00, 1\.00\], (canary: no canary recorded in the baseline or the candidate|canary ×1\.00 \(pieces ×1\.00–×1\.00\)) \(the common factor of \d+ time cells; magnitudes judged after it\); magnitude judged against the baseline's rerun interval for \1, the tolerance for 0\nhost: same( \(from provenance\.csv[^\n]*\))?\n$/,
  );
});

test('a reversed conclusion exits 1 and names it', async (t) => {
  const candidate = copyReport('candidate');
  editDifferences(candidate, dockerVsOciCold, reverse);
  const r = await runCli(['compare', copyReport('baseline'), candidate], projectRoot);
  t.is(r.code, 1);
  t.regex(
    r.stdout,
    /\n12 of 16 conclusions held in direction, 12 in magnitude, 12 in both; every cell ×1\.00 \[1\.00, 1\.00\], (canary: no canary recorded in the baseline or the candidate|canary ×1\.00 \(pieces ×1\.00–×1\.00\)) \(the common factor of 24 time cells; magnitudes judged after it\); 4 changed: numpy cold ready: docker − oci-full, numpy cold completion: docker − oci-full, shell cold ready/,
  );
  t.regex(r.stderr, /changed: shell cold completion: docker − oci-full \(docker < oci-full → docker > oci-full\)/);
});

test('a conclusion no longer detected is lost and exits 1', async (t) => {
  const candidate = copyReport('candidate');
  editDifferences(
    candidate,
    (r) => dockerVsOciCold(r) && r['cohort'] === 'shell' && r['metric'] === 'ready',
    (r) => (r['detected'] = 'false'),
  );
  const r = await runCli(['compare', copyReport('baseline'), candidate], projectRoot);
  t.is(r.code, 1);
  t.regex(r.stderr, /lost: shell cold ready: docker − oci-full/);
});

test('--json ends with the conclusions and the counts of each status', async (t) => {
  const candidate = copyReport('candidate');
  editDifferences(candidate, dockerVsOciCold, reverse);
  const r = await runCli(['compare', copyReport('baseline'), candidate, '--json'], projectRoot);
  const json = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown> & { conclusions: Record<string, unknown>[] };
  t.deepEqual(Object.keys(json), [
    'conclusions',
    'held',
    'changed',
    'lost',
    'gained',
    'unmatched',
    'heldInMagnitude',
    'heldInBoth',
    'factor',
    'canary',
    'hostClass',
    'host',
  ]);
  t.deepEqual(Object.keys(json.conclusions[0]!), ['cohort', 'state', 'metric', 'a', 'b', 'baseline', 'candidate', 'status', 'magnitude', 'magnitudeRule']);
  t.like(json, { held: 12, changed: 4, lost: 0, gained: 0, unmatched: 0 });
  t.like(
    json.conclusions.find(
      (c) => c['cohort'] === 'numpy' && c['metric'] === 'ready' && dockerVsOciCold({ ...c, kind: 'median_difference' } as Record<string, string>),
    ),
    {
      baseline: 'a<b',
      candidate: 'a>b',
      status: 'changed',
    },
  );
});

test('a missing report folder is a user error naming it, exit 2', async (t) => {
  const missing = join(tempDir(), 'no-such-report');
  const r = await runCli(['compare', published, missing], projectRoot);
  t.is(r.code, 2);
  t.true(r.stderr.startsWith(`error: ${missing}: no such report folder`), r.stderr);
});

test('a report folder without differences.csv is a user error naming the file, exit 2', async (t) => {
  const candidate = copyReport('candidate');
  rmSync(join(candidate, 'differences.csv'));
  const r = await runCli(['compare', copyReport('baseline'), candidate], projectRoot);
  t.is(r.code, 2);
  t.true(r.stderr.includes(`${join(candidate, 'differences.csv')}: missing differences.csv`), r.stderr);
});

test('columns are read by name, so a differences.csv whose sessions column moved first still compares and shows it', async (t) => {
  const candidate = copyReport('candidate');
  const file = join(candidate, 'differences.csv');
  const rows = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','));
  const at = rows[0]!.indexOf('sessions_same_direction');
  t.true(at > 0, 'the published differences.csv has a sessions_same_direction column');
  // move the column first, so reading by position would go wrong
  const moved = rows.map((r, i) => {
    const value = i === 0 ? r[at]! : r[0] === 'median_difference' ? '3 of 3' : '';
    return [value, ...r.slice(0, at), ...r.slice(at + 1)].join(',');
  });
  writeFileSync(file, moved.join('\n') + '\n');
  const out = join(tempDir(), 'written');
  const r = await runCli(['compare', copyReport('baseline'), candidate, '--write', out], projectRoot);
  t.is(r.code, 0, r.stderr);
  const md = readFileSync(join(out, 'reproduction.md'), 'utf8');
  t.regex(md, /\*\*16 of 16 conclusions held in direction, 16 in magnitude, 16 in both; every cell ×1\.00/);
  // no direction in either: the verdict words it (equivalent, undecided; not detected without a verdict column), never "no difference"
  t.regex(
    md,
    /\| shell warm ready: oci-full − lazy \| (not detected|equivalent|undecided) \| (not detected|equivalent|undecided) \| held \| held \| – \| 3 of 3 \|/,
  );
});

test('without --write no reproduction.md is written', async (t) => {
  const dir = tempDir();
  const r = await runCli(['compare', published, published], dir);
  t.is(r.code, 0);
  t.false(existsSync(join(dir, 'reproduction.md')));
});

test('statuses: no direction in both is held, detected then not is lost, the reverse gained; a conclusion new in the candidate is unmatched, never gained', (t) => {
  t.is(statusOf('none', 'none'), 'held');
  t.is(statusOf('a>b', 'none'), 'lost');
  t.is(statusOf('none', 'a<b'), 'gained');
  t.is(statusOf('a>b', 'absent'), 'lost');
  t.is(statusOf('none', 'absent'), 'unmatched');
  t.is(statusOf('absent', 'a<b'), 'unmatched', 'a comparison the baseline never made has nothing to hold it against');
  t.is(statusOf('absent', 'none'), 'unmatched');
});

test('each cell shows the ratio of candidate to baseline P50', async (t) => {
  const candidate = copyReport('candidate');
  const file = join(candidate, 'statistics.csv');
  const [head, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const p50 = head!.split(',').indexOf('p50');
  const edited = lines.map((l) => {
    const f = l.split(',');
    if (f.slice(0, 4).join(',') === 'shell,docker,cold,ready') f[p50] = String(Number(f[p50]) * 2.38);
    return f.join(',');
  });
  writeFileSync(file, [head, ...edited].join('\n') + '\n');
  const r = await runCli(['compare', copyReport('baseline'), candidate], projectRoot);
  t.regex(r.stdout, /shell docker cold ready\s+2297\.000 ms\s+5466\.860 ms\s+×2\.38\s+×2\.38\s+×0\.92–×1\.09 \(between-run\)\s+outside\n/);
});

/** Gives a report folder a run.json whose sessions carry this host fingerprint (as an archived run has). */
function withFingerprint(folder: string, fields: Partial<HostFingerprint>): string {
  const sessions = [1, 2, 3].map((session) => ({ session, attempt: 1, host: 'h', startedAt: '', endedAt: '', fingerprint: { ...HOST, ...fields } }));
  writeFileSync(join(folder, 'run.json'), JSON.stringify({ format: 'benchgraph-run/1', sessions }));
  return folder;
}

test('compare prints the host fingerprint fields that differ and names them as a possible cause when a conclusion changed', async (t) => {
  const baseline = withFingerprint(copyReport('baseline'), {});
  const candidate = withFingerprint(copyReport('candidate'), { cpuModel: 'Intel Xeon', governor: 'powersave' });
  editDifferences(candidate, dockerVsOciCold, reverse);
  const r = await runCli(['compare', baseline, candidate], projectRoot);
  t.is(r.code, 1);
  t.regex(r.stdout, /^host: cpuModel \(AMD EPYC → Intel Xeon\), governor \(performance → powersave\)$/m);
  t.regex(r.stderr, /possible cause: the hosts differ in cpuModel, governor/);
});

test('compare of two folders with the same host fingerprint prints host: same and names no host cause', async (t) => {
  const baseline = withFingerprint(copyReport('baseline'), {});
  const candidate = withFingerprint(copyReport('candidate'), { steal: 'unknown' });
  editDifferences(candidate, dockerVsOciCold, reverse);
  const r = await runCli(['compare', baseline, candidate], projectRoot);
  t.regex(r.stdout, /^host: same$/m);
  t.notRegex(r.stderr, /possible cause/);
});

test('without archived fingerprints, compare diffs the host rows of provenance.csv and says the fingerprint is partial', async (t) => {
  const baseline = copyReport('baseline');
  const candidate = copyReport('candidate');
  const provenance = (cpu: string): string => `kind,name,version,sha256,detail\nhost,cpu_model,${cpu},,\nhost,vcpus,2,,\nhost,kernel,6.1.0,,\n`;
  writeFileSync(join(baseline, 'provenance.csv'), provenance('AMD EPYC'));
  writeFileSync(join(candidate, 'provenance.csv'), provenance('Intel(R) Xeon(R) Processor'));
  editDifferences(candidate, dockerVsOciCold, (r) => {
    r['detected'] = 'false';
  });
  const r = await runCli(['compare', baseline, candidate, '--json'], projectRoot);
  t.is(r.code, 1);
  const json = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { host: { baseline: string; candidate: string; differences: unknown[] } };
  t.deepEqual(json.host, {
    baseline: 'provenance',
    candidate: 'provenance',
    differences: [{ field: 'cpuModel', before: 'AMD EPYC', after: 'Intel(R) Xeon(R) Processor' }],
  });
  t.regex(r.stderr, /possible cause: the hosts differ in cpuModel/);
});

test('a host fingerprint diff ignores a field only one side recorded and memory that moved by less than 2%', (t) => {
  const changes = fingerprintChanges({ ...HOST, memoryBytes: 25_276_510_208 }, { cpuModel: HOST.cpuModel, memoryBytes: 25_275_990_016, microcode: '0x2' });
  t.deepEqual(changes, [{ field: 'microcode', before: '0x1', after: '0x2' }]);
});
