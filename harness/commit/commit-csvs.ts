// Pure: the CSV files of the commit-diff report: cells.csv (P50 per cell,
// method and state), ratios.csv (naive/native per cell and state, wall and
// engine CPU), growth.csv (both growth fits per sweep), compression.csv, and
// commits.csv (one row per formal commit, the rows every figure comes from).
import { csv } from '../publish/format-number.js';
import type { CommitAnalysis, CommitRowData } from './commit-analysis.js';
import { fixedText } from './commit-phrases.js';

export const commitsCsvFile = 'commits.csv';

export function commitsCsv(rows: readonly CommitRowData[]): string {
  return csv(
    [
      'total_mb',
      'file_count',
      'change_bytes',
      'method',
      'state',
      'session',
      'round',
      'ok',
      'wall_ms',
      'engine_cpu_ms',
      'disk_read_bytes',
      'read_chars_bytes',
      'layer_bytes',
    ],
    rows
      .filter((r) => r.phase === 'formal')
      .map((r) => [
        r.dims['total_mb']!,
        r.dims['file_count']!,
        r.dims['change_bytes']!,
        r.method,
        r.state,
        r.session,
        r.round,
        r.ok,
        r.wallMs,
        r.engineCpuMs,
        r.diskReadBytes,
        r.readCharsBytes,
        r.layerBytes,
      ]),
  );
}

export function renderCommitCsvs(a: CommitAnalysis): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    'cells.csv',
    csv(
      [
        'cell',
        'total_mb',
        'file_count',
        'change_bytes',
        'method',
        'state',
        'n',
        'failed',
        'p50_wall_ms',
        'p50_engine_cpu_ms',
        'p50_disk_read_bytes',
        'p50_read_chars_bytes',
        'p50_layer_bytes',
      ],
      a.cells.map((c) => [
        c.cell,
        c.dims['total_mb']!,
        c.dims['file_count']!,
        c.dims['change_bytes']!,
        c.method,
        c.state,
        c.n,
        c.failed,
        c.p50WallMs,
        c.p50EngineCpuMs,
        c.p50DiskReadBytes,
        c.p50ReadCharsBytes,
        c.p50LayerBytes,
      ]),
    ),
  );
  files.set(
    'ratios.csv',
    csv(
      [
        'cell',
        'total_mb',
        'file_count',
        'change_bytes',
        'state',
        'sessions',
        'rounds',
        'naive_p50_ms',
        'native_p50_ms',
        'ratio',
        'low',
        'high',
        'session_low',
        'session_high',
        'detected',
        'naive_slower_sessions',
        'naive_slower_rounds',
        'naive_cpu_p50_ms',
        'native_cpu_p50_ms',
        'cpu_ratio',
        'cpu_low',
        'cpu_high',
      ],
      a.ratios.map((r) => [
        r.cell,
        r.dims['total_mb']!,
        r.dims['file_count']!,
        r.dims['change_bytes']!,
        r.state,
        r.comparison.sessions,
        r.comparison.rounds,
        r.medianA,
        r.medianB,
        r.comparison.observed,
        r.comparison.low,
        r.comparison.high,
        r.comparison.sessionLow,
        r.comparison.sessionHigh,
        r.comparison.findings.detected,
        r.naiveSlowerSessions,
        r.naiveSlowerRounds,
        r.cpuMedianA,
        r.cpuMedianB,
        r.engineCpu?.observed ?? null,
        r.engineCpu?.low ?? null,
        r.engineCpu?.high ?? null,
      ]),
    ),
  );
  files.set(
    'growth.csv',
    csv(
      [
        'dimension',
        'fixed',
        'method',
        'state',
        'exponent',
        'exponent_low',
        'exponent_high',
        'scale_ms',
        'floor_ms',
        'floor_low_ms',
        'floor_high_ms',
        'cost_ms_per_unit',
        'cost_low_ms_per_unit',
        'cost_high_ms_per_unit',
        'power_log_rms',
        'line_log_rms',
        'sizes',
        'observations',
        'resamples',
        'confidence',
      ],
      a.growth.map((g) => [
        g.dimension,
        fixedText(g.fixed),
        g.method,
        g.state,
        g.fit?.slope ?? null,
        g.fit?.low ?? null,
        g.fit?.high ?? null,
        g.fit?.scale ?? null,
        g.line?.floor ?? null,
        g.line?.floorLow ?? null,
        g.line?.floorHigh ?? null,
        g.line?.cost ?? null,
        g.line?.costLow ?? null,
        g.line?.costHigh ?? null,
        g.powerLogRms,
        g.lineLogRms,
        g.fit?.sizes ?? g.line?.sizes ?? null,
        g.fit?.observations ?? g.line?.observations ?? null,
        g.fit?.resamples ?? null,
        g.fit?.confidence ?? null,
      ]),
    ),
  );
  files.set(
    'compression.csv',
    csv(
      ['method', 'n', 'failed', 'p50_wall_ms', 'p50_layer_bytes', 'p50_compressed_bytes', 'mb_per_s', 'note'],
      a.compression.map((c) => [c.method, c.n, c.failed, c.p50WallMs, c.p50LayerBytes, c.p50CompressedBytes, c.mbPerS, c.note]),
    ),
  );
  return files;
}
