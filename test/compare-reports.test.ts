import test from 'ava';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusOf } from '../harness/compare/compare-reports.js';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

const published = join(projectRoot, 'reports', 'lazy-startup');

/** A copy of the published report folder (today's format) in a temporary folder. */
function copyReport(name: string): string {
  const dir = join(tempDir('benchgraph-compare-'), name);
  cpSync(published, dir, { recursive: true });
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

test('a report compared with itself in today\'s format holds every conclusion and exits 0', async (t) => {
  const r = await runCli(['compare', published, published], projectRoot);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /24 of 24 conclusions held\n$/);
});

test('a reversed conclusion exits 1 and names it', async (t) => {
  const candidate = copyReport('candidate');
  editDifferences(candidate, dockerVsOciCold, reverse);
  const r = await runCli(['compare', published, candidate], projectRoot);
  t.is(r.code, 1);
  t.regex(r.stdout, /20 of 24 conclusions held; 4 changed: numpy cold ready: docker − oci-full/);
  t.regex(r.stderr, /changed: shell cold completion: docker − oci-full \(docker < oci-full → docker > oci-full\)/);
});

test('a conclusion no longer detected is lost and exits 1', async (t) => {
  const candidate = copyReport('candidate');
  editDifferences(candidate, (r) => dockerVsOciCold(r) && r['cohort'] === 'shell' && r['metric'] === 'ready', (r) => (r['detected'] = 'false'));
  const r = await runCli(['compare', published, candidate], projectRoot);
  t.is(r.code, 1);
  t.regex(r.stderr, /lost: shell cold ready: docker − oci-full/);
});

test('--json ends with the conclusions and the counts of each status', async (t) => {
  const candidate = copyReport('candidate');
  editDifferences(candidate, dockerVsOciCold, reverse);
  const r = await runCli(['compare', published, candidate, '--json'], projectRoot);
  const json = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown> & { conclusions: Record<string, unknown>[] };
  t.deepEqual(Object.keys(json), ['conclusions', 'held', 'changed', 'lost', 'gained', 'unmatched']);
  t.deepEqual(Object.keys(json.conclusions[0]!), ['cohort', 'state', 'metric', 'a', 'b', 'baseline', 'candidate', 'status']);
  t.like(json, { held: 20, changed: 4, lost: 0, gained: 0 });
  t.like(json.conclusions.find((c) => c['cohort'] === 'numpy' && c['metric'] === 'ready' && dockerVsOciCold({ ...c, kind: 'median_difference' } as Record<string, string>)), {
    baseline: 'a<b', candidate: 'a>b', status: 'changed',
  });
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
  const r = await runCli(['compare', published, candidate], projectRoot);
  t.is(r.code, 2);
  t.true(r.stderr.includes(`${join(candidate, 'differences.csv')}: missing differences.csv`), r.stderr);
});

test('columns are read by name, so a differences.csv with a new sessions column still compares and shows it', async (t) => {
  const candidate = copyReport('candidate');
  const file = join(candidate, 'differences.csv');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  // put the new column first, so reading by position would go wrong
  writeFileSync(file, lines.map((l, i) => (i === 0 ? 'sessions_same_direction,' : l.startsWith('median_difference') ? '3 of 3,' : ',') + l).join('\n') + '\n');
  const out = join(tempDir(), 'written');
  const r = await runCli(['compare', published, candidate, '--write', out], projectRoot);
  t.is(r.code, 0, r.stderr);
  const md = readFileSync(join(out, 'reproduction.md'), 'utf8');
  t.regex(md, /\*\*24 of 24 conclusions held\.\*\*/);
  t.regex(md, /\| shell warm ready: oci-full − lazy \| no difference \| no difference \| held \| – \| 3 of 3 \|/);
});

test('without --write no reproduction.md is written', async (t) => {
  const dir = tempDir();
  const r = await runCli(['compare', published, published], dir);
  t.is(r.code, 0);
  t.false(existsSync(join(dir, 'reproduction.md')));
});

test('statuses: no difference in both is held, detected then not is lost, the reverse gained', (t) => {
  t.is(statusOf('none', 'none'), 'held');
  t.is(statusOf('a>b', 'none'), 'lost');
  t.is(statusOf('none', 'a<b'), 'gained');
  t.is(statusOf('a>b', 'absent'), 'lost');
  t.is(statusOf('none', 'absent'), 'unmatched');
});
