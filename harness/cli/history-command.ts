// `pipeline history [EXPERIMENT|FOLDER…]`: the series of archived runs, per
// cell and conclusion, with change points and the inputs that changed there.
// Thin: parses flags, calls harness/history, prints or writes. Exit 0, or 1
// with --fail-on regression when the latest run starts a regression in a
// watched cell (named on stderr), 2 on a user error.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadPipeline } from '../config/load-pipeline.js';
import { CheckFailed, UserError } from '../errors.js';
import { knownStageKinds } from '../engine/stage-registry.js';
import { bmfExport } from '../history/bmf-export.js';
import { buildHistory } from '../history/build-history.js';
import { dedupeRuns, droppedLine } from '../history/dedupe-runs.js';
import { cellPlot } from '../history/history-plots.js';
import { importReportFolder } from '../history/import-folder.js';
import { orderRuns } from '../history/order-runs.js';
import { readRunsOf } from '../history/read-runs.js';
import { regressions } from '../history/regression-gate.js';
import { changeLine, historyJson, renderHistoryHtml, renderHistoryMd, renderHistoryText } from '../history/render-history.js';
import { renderSvg } from '../publish/plot-adapter.js';
import type { CliCommand } from './cli-command.js';
import { listFlag } from './parse-args.js';

const USAGE =
  'pipeline history [EXPERIMENT|FOLDER|REF..] [--by time|label|pins.NAME] [--json] [--verbose] [--write DIR] [--fail-on regression [--watch C.P.S.M]] [--export-bmf FILE] [--import FOLDER [--label TEXT]]';

export const historyCommand: CliCommand = {
  summary: 'the series of archived runs: change points per cell and the inputs that changed there',
  usage: USAGE,
  about: [
    'Reads the archived runs of an experiment (reports/<name>/runs/; default: the experiment of ./pipeline.yaml),',
    'or the folders given, in the order given, or the runs pushed to a registry (REF, e.g. registry.example/team/x);',
    'a run reached twice counts once. Per run, the factor every cell',
    'shares; its shifts are reported once, as a run or host effect; a cell change is a step beyond it, judged',
    'against the between-run variation (replicate runs with the same sample-stage key, else the host-kind figure),',
    'with what could have caused it: inputs of the sample stage, pinned binaries, images, host fingerprint, load.',
    '--json has "shifts":[{"run","ratio","low","high","cells","cause","canary"}] and ends with',
    '{"runs":[{"id","folder","time"}],"changes":[{"cohort","path","state","metric","run","ratio","low","high","changed":[..]}]}.',
  ].join('\n'),
  flags: {
    file: { kind: 'string', short: 'f', value: 'FILE', help: 'pipeline file naming the default experiment (default pipeline.yaml)' },
    by: { kind: 'string', value: 'KEY', help: 'order runs by time (default), label, or pins.NAME (a pinned binary version)' },
    json: { kind: 'boolean', help: 'print JSON instead of text' },
    verbose: { kind: 'boolean', help: 'list every changed input and file whole, instead of one short line per change' },
    write: { kind: 'string', value: 'DIR', help: 'also write DIR/history.md and DIR/history.html (one plot per cell)' },
    'fail-on': { kind: 'string', value: 'regression', help: 'exit 1 when the latest run makes a change for the worse reportable in a watched cell' },
    watch: { kind: 'list', value: 'C.P.S.M', help: 'watched cells for --fail-on, cohort.path.state.metric, * for any (default: every cell)' },
    'export-bmf': { kind: 'string', value: 'FILE', help: "write the latest run's cells as Bencher Metric Format JSON" },
    import: { kind: 'list', value: 'FOLDER', help: 'first file a published report folder as an archived run of its experiment' },
    label: { kind: 'string', value: 'TEXT', help: 'label of the runs --import files (for --by label)' },
    ca: { kind: 'string', value: 'FILE', help: 'CA file of the registry a REF argument names (or $BENCHGRAPH_REGISTRY_CA)' },
  },
  positionals: true,
  run: async ({ flags, positional }) => {
    const failOn = flags['fail-on'];
    if (failOn !== undefined && failOn !== 'regression')
      throw new UserError(`unknown --fail-on '${String(failOn)}'`, { key: '--fail-on' }, 'use --fail-on regression');
    const watch = listFlag(flags['watch']);
    for (const w of watch)
      if (w.split('.').length !== 4)
        throw new UserError(`'${w}' is not cohort.path.state.metric`, { key: '--watch' }, 'e.g. --watch shell.lazy.cold.ready or shell.*.cold.*');
    const label = typeof flags['label'] === 'string' ? flags['label'] : null;
    const imports = listFlag(flags['import']);
    if (label !== null && !imports.length) throw new UserError('--label needs --import', { key: '--label' }, 'the label is given to the runs --import files');
    const projectDir = process.cwd();
    const imported: string[] = [];
    for (const folder of imports) {
      const r = importReportFolder(folder, projectDir, label);
      process.stderr.write(`${r.action === 'filed' ? 'archived' : 'already archived'} ${folder} as ${relative(projectDir, r.folder)}\n`);
      imported.push(r.experiment);
    }
    let args = positional;
    if (!args.length) {
      if (imported.length) args = [...new Set(imported)];
      else args = [loadPipeline((flags['file'] as string | undefined) ?? 'pipeline.yaml', { sets: [], knownKinds: knownStageKinds() }).experiment.name];
    }
    const resolved: string[] = [];
    // a registry's runs are read from a temporary folder: each row shows its registry reference instead
    const refs: Record<string, string> = {};
    for (const a of args) {
      if (!existsSync(a) && (await import('../store/registry-ref.js')).looksLikeRegistryRef(a)) {
        const { remoteRunsFolder } = await import('../store/remote-report.js');
        const remote = await remoteRunsFolder(a, typeof flags['ca'] === 'string' ? flags['ca'] : null, 'history', (l) => void process.stderr.write(l + '\n'));
        resolved.push(remote.folder);
        Object.assign(refs, remote.refs);
      } else resolved.push(a);
    }
    const deduped = dedupeRuns(resolved.flatMap((a) => readRunsOf(a, projectDir).map((r) => (refs[r.id] ? { ...r, folder: refs[r.id]! } : r))));
    for (const d of deduped.dropped) process.stderr.write(droppedLine(d) + '\n');
    const runs = deduped.runs;
    const by = typeof flags['by'] === 'string' ? flags['by'] : null;
    // Several folders form the series in the order given; one experiment or folder of runs is in time order.
    const ordered = by ? orderRuns(runs, by) : runs;
    const history = buildHistory(ordered);
    const title = args.join(', ');
    if (typeof flags['write'] === 'string') {
      const dir = flags['write'];
      mkdirSync(dir, { recursive: true });
      const ids = history.runs.map((r) => r.id);
      const svgs: Record<string, string> = {};
      for (const [i, cell] of history.cells.entries()) {
        const file = `cell-${i + 1}.svg`;
        svgs[file] = await renderSvg(cellPlot(cell, ids));
        writeFileSync(join(dir, file), svgs[file]!);
      }
      writeFileSync(join(dir, 'history.md'), renderHistoryMd(history, title, Object.keys(svgs)));
      writeFileSync(join(dir, 'history.html'), renderHistoryHtml(history, title, svgs));
      process.stderr.write(`wrote ${join(dir, 'history.md')} and ${join(dir, 'history.html')}\n`);
    }
    if (typeof flags['export-bmf'] === 'string') writeFileSync(flags['export-bmf'], JSON.stringify(bmfExport(history), null, 2) + '\n');
    process.stdout.write(flags['json'] ? JSON.stringify(historyJson(history)) + '\n' : renderHistoryText(history, title, flags['verbose'] === true));
    if (failOn === 'regression') {
      const bad = regressions(history, ordered.length > 1 ? buildHistory(ordered.slice(0, -1)) : null, watch);
      if (bad.length)
        throw new CheckFailed(
          `the latest run makes ${bad.length} regression(s) reportable in watched cells`,
          bad.map((c) => changeLine(c)),
        );
    }
    return 0;
  },
};
