// Made-up archived runs for the history tests: report folders with the CSVs a
// published launch report has (statistics, differences, sessions,
// provenance), filed by the real archive function with made-up stage key
// inputs and host fingerprints.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { archiveRun } from '../../harness/history/archive-run.js';
import type { ArchivedStage } from '../../harness/history/run-record.js';
import type { HostFingerprint } from '../../harness/process/host-fingerprint.js';

export interface MadeUpRun {
  /** cell "cohort path state metric" -> session medians (ms) */
  cells: Record<string, number[]>;
  /** The sample stage's config slice. */
  config: Record<string, unknown>;
  time: string;
  fingerprint?: Partial<HostFingerprint>;
  binaries?: Record<string, string>;
  /** The sessions' load (all sessions alike); none recorded when absent. */
  load?: { noisy: boolean; idleShare: number; rule?: 'canary' };
  /** The sample stage's key (default: one of its own per run, so no two runs are replicates). */
  sampleKey?: string;
  /** Code file digests of the sample and analyze stages (default: one file each, the same in every run). */
  sampleCode?: Record<string, string>;
  analyzeCode?: Record<string, string>;
  /** The pin stage's key; no pin stage when absent. */
  pinKey?: string;
  /** The run's host canary: piece -> its run median (ms), each session at that median; none when absent. */
  canary?: Record<string, number>;
}

export const HOST: HostFingerprint = {
  cpuModel: 'AMD EPYC',
  microcode: '0x1',
  governor: 'performance',
  boost: 'off',
  smt: 'off',
  cpuCount: 2,
  memoryBytes: 25_000_000_000,
  vulnerabilities: { meltdown: 'Not affected' },
  kernelRelease: '6.1.0',
  kernelVersion: '#1 SMP',
  kernelCmdline: 'quiet',
  isolcpus: '',
  cgroupVersion: '2',
  dockerStorageDriver: 'overlay2',
  dataFsType: 'ext4',
  dataMountOptions: 'rw,relatime',
  virtualization: 'kvm',
  steal: 'none',
};

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** Writes one report folder and files it in runsDir; returns the archived run's folder. */
export function fileMadeUpRun(scratch: string, runsDir: string, run: MadeUpRun, n: number): string {
  const dir = join(scratch, `report-${n}`);
  mkdirSync(dir, { recursive: true });
  const stats = ['cohort,path,state,metric,unit,n,p50'];
  const sessions = ['cohort,path,state,metric,session,n,p50_ms'];
  for (const [cell, values] of Object.entries(run.cells)) {
    const [cohort, path, state, metric] = cell.split(' ');
    stats.push(`${cohort},${path},${state},${metric},ms,${values.length * 10},${median(values)}`);
    values.forEach((v, i) => sessions.push(`${cohort},${path},${state},${metric},${i + 1},10,${v}`));
  }
  writeFileSync(join(dir, 'statistics.csv'), stats.join('\n') + '\n');
  // one made-up launch row per run, so two runs with equal tables are still two runs (archived by samples)
  writeFileSync(join(dir, 'samples.csv'), `experiment,phase,launch_id,started_at\nmade-up,formal,run-${n},${run.time}\n`);
  writeFileSync(join(dir, 'sessions.csv'), sessions.join('\n') + '\n');
  writeFileSync(
    join(dir, 'differences.csv'),
    'kind,cohort,state,metric,a,b,unit,value,low,high,detected\nmedian_difference,shell,cold,ready,oci-full,lazy,ms,100,90,110,true\n',
  );
  const binaries = run.binaries ?? { crun: 'crun version 1.8.1' };
  writeFileSync(
    join(dir, 'provenance.csv'),
    ['kind,name,version,sha256,detail', ...Object.entries(binaries).map(([name, v]) => `binary,${name},${v},${'ab'.repeat(32)},/usr/bin/${name}`)].join('\n') +
      '\n',
  );
  const stage = (uses: string, config: Record<string, unknown>, code: Record<string, string> | undefined, key?: string): ArchivedStage => ({
    uses,
    key: key ?? `${uses}-${n}`,
    outputDigest: `${uses}-out-${n}`,
    code: code ?? { [`stages/${uses}.ts`]: 'c0de' },
    config,
    params: {},
  });
  const sessionCount = Math.max(...Object.values(run.cells).map((v) => v.length));
  const fingerprint = { ...HOST, ...run.fingerprint } as HostFingerprint;
  return archiveRun({
    reportDir: dir,
    runsDir,
    experiment: 'made-up',
    source: 'published',
    stages: {
      ...(run.pinKey ? { pin: stage('pin', {}, undefined, run.pinKey) } : {}),
      sample: stage('sample', run.config, run.sampleCode, run.sampleKey),
      analyze: stage('analyze', { analysis: { bootstrap: { resamples: 2000 } } }, run.analyzeCode),
    },
    canary: run.canary
      ? {
          pieces: Object.entries(run.canary).map(([piece, m]) => ({ piece, medianMs: m, lowMs: m * 0.99, highMs: m * 1.01 })),
          sessions: Array.from({ length: sessionCount }, (_, i) => ({
            session: i + 1,
            pieces: Object.entries(run.canary!).map(([piece, m]) => ({ piece, medianMs: m })),
          })),
        }
      : null,
    sessions: Array.from({ length: sessionCount }, (_, i) => ({
      session: i + 1,
      attempt: 1,
      host: 'h',
      startedAt: run.time,
      endedAt: run.time,
      fingerprint,
      noise: run.load
        ? {
            noisy: run.load.noisy,
            reasons: [],
            ...(run.load.rule ? { rule: run.load.rule } : {}),
            loadAverageStart: 1,
            loadAverageEnd: 1,
            idleShare: run.load.idleShare,
            stealShare: 0,
          }
        : null,
    })),
  }).folder;
}

/** Three sessions per run around `level` with a fixed small spread. */
export const around = (level: number): number[] => [level - 3, level, level + 3];
