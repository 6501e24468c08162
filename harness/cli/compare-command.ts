// `pipeline compare BASELINE CANDIDATE [--json] [--write FOLDER]`: hold a
// reproduction's published report against a published report. Thin: parses
// its own flags (self-contained), calls harness/compare, prints. Exit 0 when
// no conclusion changed or was lost, 1 when one did (named on stderr), 2 on a
// user error (a missing folder, CSV or column, named).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckFailed, UserError } from '../errors.js';
import { compareReports, comparisonJson, conclusionLabel, directionLabel } from '../compare/compare-reports.js';
import { readPublishedReport } from '../compare/read-published-report.js';
import { renderComparisonText, renderReproductionMd } from '../compare/render-comparison.js';

const USAGE_HINT = 'usage: pipeline compare BASELINE CANDIDATE [--json] [--write FOLDER]';

function parseCompareArgs(args: readonly string[]): { baseline: string; candidate: string; json: boolean; write: string | null } {
  const positional: string[] = [];
  let json = false;
  let write: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--write' || a.startsWith('--write=')) {
      const value = a === '--write' ? args[++i] : a.slice('--write='.length);
      if (!value) throw new UserError('needs a folder', { key: '--write' }, USAGE_HINT);
      write = value;
    } else if (a.startsWith('-') && a !== '-') throw new UserError('unknown flag', { key: a }, USAGE_HINT);
    else positional.push(a);
  }
  if (positional.length !== 2) throw new UserError(`expected two report folders, got ${positional.length}`, { key: 'compare' }, USAGE_HINT);
  return { baseline: positional[0]!, candidate: positional[1]!, json, write };
}

export async function compareCommand(args: string[]): Promise<number> {
  const opts = parseCompareArgs(args);
  const baseline = readPublishedReport(opts.baseline);
  const candidate = readPublishedReport(opts.candidate);
  const result = compareReports(baseline, candidate);
  if (opts.write !== null) {
    mkdirSync(opts.write, { recursive: true });
    writeFileSync(join(opts.write, 'reproduction.md'), renderReproductionMd(result, opts.baseline, opts.candidate));
  }
  process.stdout.write(opts.json ? JSON.stringify(comparisonJson(result)) + '\n' : renderComparisonText(result));
  const bad = result.conclusions.filter((c) => c.status === 'changed' || c.status === 'lost');
  if (bad.length) {
    throw new CheckFailed(
      `${bad.length} of ${result.conclusions.length} conclusions changed or were lost`,
      bad.map((c) => `${c.status}: ${conclusionLabel(c)} (${directionLabel(c.baseline, c.a, c.b)} → ${directionLabel(c.candidate, c.a, c.b)})`),
    );
  }
  return 0;
}
