// Benchmark (not a test): our launcher against hyperfine on the same trivial
// command, interleaved in blocks in one run so both see the same machine state.
//   node dist/bench/measure-vs-hyperfine.js [--blocks 10] [--runs-per-block 20] [--warmup-per-block 2]
// Prints the ratio of medians (ours / hyperfine; target 0.95-1.05) and the
// harness's bookkeeping between launches with a DuckDB journal write per
// launch (target < 5 ms per launch).

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Database } from '../harness/db/duckdb.js';
import { Launcher } from '../harness/launch/launcher.js';
import { checkOutput } from '../harness/launch/output-check.js';
import { quantile } from '../harness/stats/quantile.js';

const run = promisify(execFile);

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const blocks = flag('--blocks', 10);
const perBlock = flag('--runs-per-block', 20);
/** Unrecorded runs at the start of every block, for both tools (hyperfine --warmup). */
const warmupPerBlock = flag('--warmup-per-block', 2);
const command = ['sh', '-c', 'echo MARKER'];
const commandLine = `sh -c 'echo MARKER'`;

const CREATE = `CREATE TABLE samples (
  experiment VARCHAR, cohort VARCHAR, path VARCHAR, state VARCHAR, phase VARCHAR,
  round INTEGER, order_in_round INTEGER, launch_id VARCHAR PRIMARY KEY,
  ready_ms DOUBLE, completion_ms DOUBLE, content_bytes BIGINT, response_bytes BIGINT,
  exit_code INTEGER, signal VARCHAR, ok BOOLEAN, failure_reason VARCHAR, started_at VARCHAR,
  user_cpu_ms DOUBLE, sys_cpu_ms DOUBLE, max_rss_kb BIGINT)`;
const INSERT = `INSERT INTO samples VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20)`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'benchgraph-bench-'));
  const db = await Database.open(join(dir, 'samples.duckdb'));
  const launcher = await Launcher.start();
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const ours: number[] = [];
  const oursReady: number[] = [];
  const theirs: number[] = [];
  const helperIdleMs: number[] = [];
  const nodeGapMs: number[] = [];
  const insertMs: number[] = [];
  let failures = 0;
  let seq = 0;
  try {
    await db.exec(CREATE);

    const runOurs = async (block: number, record: boolean): Promise<void> => {
      let resultAt: number | null = null;
      for (let i = -warmupPerBlock; i < perBlock; i++) {
        const formal = record && i >= 0;
        const launchId = `b${block}-${formal ? 'r' : 'w'}${i}-${++seq}`;
        if (resultAt !== null) nodeGapMs.push(performance.now() - resultAt);
        const r = await launcher.launch({ launchId, argv: command, env, cwd: dir, marker: 'MARKER', timeoutMs: 10_000, tailBytes: 4096 });
        resultAt = performance.now();
        if (record && i > -warmupPerBlock && launcher.lastIdleMs !== null) helperIdleMs.push(launcher.lastIdleMs);
        const check = checkOutput(r, { exit_code: 0, stdout_patterns: [] });
        const t0 = performance.now();
        await db.exec(INSERT, [
          'bench', 'shell', 'ours', 'cold', formal ? 'formal' : 'warmup', block, 0, launchId,
          r.readyMs, r.completionMs, null, null, r.exitCode, r.signal, check.ok, check.reason,
          new Date().toISOString(), r.userCpuMs, r.sysCpuMs, r.maxRssKb,
        ]);
        if (record) insertMs.push(performance.now() - t0);
        if (!formal) continue;
        if (!check.ok) failures++;
        else {
          ours.push(r.completionMs!);
          oursReady.push(r.readyMs!);
        }
      }
    };

    const runHyperfine = async (record: boolean): Promise<void> => {
      const out = join(dir, `hyperfine-${++seq}.json`);
      await run('hyperfine', ['-N', '--warmup', String(warmupPerBlock), '--runs', String(perBlock), '--output=pipe', '--style', 'none', '--export-json', out, commandLine]);
      const json = JSON.parse(await readFile(out, 'utf8')) as { results: { times: number[] }[] };
      if (record) theirs.push(...json.results[0]!.times.map((s) => s * 1000));
    };

    // One unrecorded block of each first: page cache, CPU frequency, DuckDB warm.
    await runOurs(-1, false);
    await runHyperfine(false);
    for (let b = 0; b < blocks; b++) {
      if (b % 2 === 0) {
        await runOurs(b, true);
        await runHyperfine(true);
      } else {
        await runHyperfine(true);
        await runOurs(b, true);
      }
    }
  } finally {
    await launcher.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }

  const med = (v: number[]): number => quantile(v, 0.5);
  const fmt = (v: number): string => v.toFixed(3);
  const line = (label: string, v: number[]): string =>
    `  ${label.padEnd(34)} median ${fmt(med(v))} ms   P95 ${fmt(quantile(v, 0.95))} ms   min ${fmt(Math.min(...v))} ms   n=${v.length}`;
  const ratio = med(ours) / med(theirs);
  console.log(`${commandLine}: ${blocks} interleaved blocks of ${perBlock} runs each, ${warmupPerBlock} unrecorded warmup runs per block (failures: ${failures})`);
  console.log(line('ours, Completion', ours));
  console.log(line('ours, Ready', oursReady));
  console.log(line('hyperfine -N', theirs));
  console.log(`  ratio of medians, Completion ours/hyperfine: ${ratio.toFixed(3)} (target 0.95-1.05) ${ratio >= 0.95 && ratio <= 1.05 ? 'OK' : 'OUT OF RANGE'}`);
  console.log(`  ratio of medians, Ready ours/hyperfine:      ${(med(oursReady) / med(theirs)).toFixed(3)}`);
  console.log('bookkeeping between launches (previous result written -> next request read, measured by the helper):');
  console.log(line('helper idle, with DuckDB insert', helperIdleMs));
  console.log(`  target < 5 ms per launch: ${med(helperIdleMs) < 5 && quantile(helperIdleMs, 0.95) < 5 ? 'OK' : 'OVER'} (P95 ${fmt(quantile(helperIdleMs, 0.95))} ms)`);
  console.log(line('Node: result resolved -> next launch', nodeGapMs));
  console.log(line('DuckDB insert alone', insertMs));
}

await main();
