// burst-report: burst-startup's own analysis and document. The
// latency–concurrency curve per path and N (harness/burst/concurrency-curve.ts),
// each path's knee (knee.ts), and the analyze stage's comparisons decided by
// the one judge. Publishes report.md and index.html, the plot, curve.csv,
// samples.csv, and the statistics.csv and differences.csv every experiment
// publishes (pipeline compare reads them).
import { openLoopTable, type OpenLoopRow } from '../harness/burst/open-loop.js';
import { notesForRun } from '../harness/config/run-notes.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectDirOf } from '../harness/config/project-dir.js';
import type { StageDefinition } from '../harness/contract/stage.js';
import { needInputFile, findInputFile, type SessionRecord } from '../harness/contract/exchange-files.js';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { samplesCsv, samplesCsvFile } from '../harness/publish/samples-csv.js';
import { comparisonStatisticsCsv, recordColumns, writeDifferencesCsv } from '../harness/publish/comparison-csv.js';
import { publish } from '../harness/publish/publish.js';
import { previousRunFiles } from '../harness/compare/previous-run-files.js';
import { withPreviousRunOf } from '../harness/compare/previous-run-param.js';
import { runCanaryOf } from '../harness/history/published-run.js';
import { checkoutCommit } from '../harness/publish/provenance.js';
import { reproduceDocument } from '../harness/publish/reproduce-document.js';
import { burstLaunchesOf } from '../harness/burst/burst-launches.js';
import { concurrencyCurve } from '../harness/burst/concurrency-curve.js';
import { kneeOf } from '../harness/burst/knee.js';
import { BURST_PATHS, burstColumns, runtimeOf } from '../harness/burst/burst-adapter.js';
import { curveCsv, openLoopCsv } from '../harness/burst/curve-csv.js';
import { curvePlot } from '../harness/burst/curve-plot.js';
import { burstDocument, type BurstDocumentInput } from '../harness/burst/burst-document.js';

/** What one launch of each path is (the report's 'How it was measured'). */
const PATH_DESCRIPTIONS: Record<string, string> = {
  crun: 'crun run of busybox’s shell in a fresh overlay over one read-only root unpacked once a session (harness/paths/oci-run.sh): own pid, mount, ipc, uts and network namespaces, loopback only',
  runsc:
    'runsc run (gVisor, ptrace platform, --network=none) of the same shell over the same root and fresh overlays (harness/paths/gvisor-run.sh), the sandbox deleted after',
  docker: 'docker run --rm --network none of the same root, imported once a session into a private Docker engine (loopback socket only, no bridge)',
  lazy: 'crun as crun’s path, over the same root read on demand: its erofs image served by nginx on loopback, through an rclone mount of its URL (64 KiB reads, one at a time, no read-ahead; harness/paths/lazy-mount.sh); one mount per burst or train, made fresh before its release and undone after it, read by all its launches, so the image’s first reads fall inside the burst',
};

const burstReport: StageDefinition = {
  kind: 'burst-report',
  description:
    'The latency–concurrency curve per path and N with intervals, each knee, makespan, throughput and failures, and the judged comparisons (report.md, index.html, curve.csv).',
  reads: ['experiment', 'report', 'design', 'analysis.bootstrap', 'analysis.practical'],
  readsObservations: true, // the sessions' records: host noise per session
  publishDir: (config) => 'reports/' + config.experiment.name,
  inputFiles: (params) => previousRunFiles(params),
  async run(ctx) {
    const need = (name: string, stage: string): string => needInputFile(ctx, name, stage).file;
    const analysis = JSON.parse(readFileSync(need('analysis.json', 'analyze'), 'utf8')) as AnalysisResult;
    const samples = needInputFile(ctx, 'samples.duckdb', 'sample');
    const rows = await SampleJournal.readRows(samples.file);
    const sessionsFile = findInputFile(ctx.inputs, 'sessions.json');
    const sessionRecords = sessionsFile ? (JSON.parse(readFileSync(sessionsFile.file, 'utf8')) as SessionRecord[]) : null;
    const memory = readdirSync(samples.dir)
      .filter((f) => /^memory-s\d+\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(join(samples.dir, f), 'utf8')) as BurstDocumentInput['memory'][number])
      .sort((a, b) => a.session - b.session);
    const launches = burstLaunchesOf(rows as Parameters<typeof burstLaunchesOf>[0]);
    const confidence = ctx.config.rules.bootstrap.confidence;
    const points = concurrencyCurve(launches, confidence);
    const openLoop = openLoopTable(rows as unknown as OpenLoopRow[], launches, confidence);
    const sampled = new Set(points.map((p) => p.path));
    const paths = [...BURST_PATHS.filter((p) => sampled.has(p)), ...[...sampled].filter((p) => !(BURST_PATHS as readonly string[]).includes(p))];
    const practical = ctx.config.rules.practical;
    const knees = paths.flatMap((path) => kneeOf(points, path, { minRatioChange: practical.relative, minMs: practical.absoluteMs }) ?? []);
    const plot = curvePlot(points, paths);
    const exp = ctx.config.experiment;
    const options = ctx.config.reportOptions;
    const design = ctx.config.design;
    const doc = burstDocument({
      title: options.title ?? exp.name,
      question: exp.question,
      motivation: exp.motivation ?? null,
      paths,
      pathDescriptions: Object.fromEntries(
        paths.map((p) => [p, (runtimeOf(p) === p ? '' : `${runtimeOf(p)} under a name of its own: `) + (PATH_DESCRIPTIONS[runtimeOf(p) ?? p] ?? p)]),
      ),
      sharedMountPaths: paths.filter((p) => runtimeOf(p) === 'lazy'),
      points,
      openLoop,
      knees,
      differences: analysis.differences,
      cells: analysis.cells,
      memory,
      sessions: design.sessions,
      rounds: design.rounds,
      unmeasured: exp.unmeasured ?? [],
      notes: notesForRun(options.notes, samples.input.outputDigest),
      provenance: Object.keys(ctx.inputs)
        .sort()
        .map((id) => `stage \`${id}\` (${ctx.inputs[id]!.kind}): ${ctx.inputs[id]!.outputDigest}`),
      sessionRecords,
      noise: analysis.noise,
      plotFile: plot?.file ?? null,
    });
    const statistics = comparisonStatisticsCsv(
      analysis.cells.map((c) => ({ cohort: c.cohort, path: c.path, state: c.state, metric: c.metric, unit: 'ms', n: c.n, p50: c.p50Ms })),
    );
    const differences = writeDifferencesCsv(analysis.differences.filter((d) => !d.factor).map((d) => recordColumns(d, d.verdict?.verdict ?? 'undecided')));
    const pipelineFileName = relative(projectDirOf(ctx.pipelineFile), ctx.pipelineFile) || ctx.pipelineFile;
    const reproduce = reproduceDocument({
      name: exp.name,
      pipelineFileName,
      needs: [
        'Debian 12 (bookworm) on x86_64 as root; `./setup.sh` installs what the paths use (crun, runsc, the Docker engine, rclone and nginx for the lazy path).',
      ],
      root: true,
      commandNotes: [`\`./bin/pipeline.js run -f ${pipelineFileName}\` publishes the new report to \`reports/${exp.name}/\`.`],
      howLong: [],
      reproduced:
        'Start-up times under concurrency depend on the host: cores, memory and the kernel. Hold a rerun on another host against the ratios to N = 1 and the knees, not the milliseconds, with `./bin/pipeline.js compare`.',
      stages: Object.keys(ctx.inputs)
        .sort()
        .map((id) => ({ id, kind: ctx.inputs[id]!.kind, outputDigest: ctx.inputs[id]!.outputDigest })),
      samplesSha256: null,
      commit: checkoutCommit(),
      versions: null,
    });
    const csvs = {
      'differences.csv': differences,
      'statistics.csv': statistics,
      'curve.csv': curveCsv(points),
      ...(openLoop.length ? { 'open-loop.csv': openLoopCsv(openLoop) } : {}),
      [samplesCsvFile]: samplesCsv(rows, burstColumns),
    };
    await publish(ctx, {
      doc: withPreviousRunOf(ctx, doc, csvs, runCanaryOf(analysis.canary ?? null)),
      plots: plot ? [plot] : [],
      csvs,
      reproduce,
    });
  },
};

export default burstReport;
