// image-reads-report: the fifth experiment's own analysis and document. How
// much of each image did a cold start-up read over the lazy path, at each
// read size (harness/image-reads/read-shares.ts, written as reads.json), the
// peers' figures checked against it, and the analyze stage's Ready
// differences between read sizes. Publishes report.md and index.html,
// reads.json, samples.csv, and the statistics.csv and differences.csv every
// experiment publishes (pipeline compare reads them).
import { notesForRun } from '../harness/config/run-notes.js';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { projectDirOf } from '../harness/config/project-dir.js';
import type { StageDefinition } from '../harness/contract/stage.js';
import { readExchange, needInputFile, missingInput, findInputFile, type SessionRecord } from '../harness/contract/exchange-files.js';
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
import { readShares, type ImageSize } from '../harness/image-reads/read-shares.js';
import { readsDocument } from '../harness/image-reads/reads-document.js';

const imageReadsReport: StageDefinition = {
  kind: 'image-reads-report',
  description: 'How much of each image a cold start-up read, per read size, with the peers’ figures checked (report.md, index.html, reads.json).',
  reads: ['experiment', 'report', 'cohorts', 'paths', 'design', 'analysis.bootstrap'],
  readsObservations: true, // the sessions' records: host noise per session
  publishDir: (config) => 'reports/' + config.experiment.name,
  // with: { previous_run: FOLDER } — an archived run, for "Against the previous run"; its files join the key.
  inputFiles: (params) => previousRunFiles(params),
  async run(ctx) {
    const need = (name: string, stage: string): string => needInputFile(ctx, name, stage).file;
    const analysis = JSON.parse(readFileSync(need('analysis.json', 'analyze'), 'utf8')) as AnalysisResult;
    const pins = readExchange(ctx.inputs, 'pins.json')?.value;
    if (!pins) throw missingInput(ctx, 'pins.json', 'pin');
    const samplesInput = needInputFile(ctx, 'samples.duckdb', 'sample');
    const samplesFile = samplesInput.file;
    const rows = await SampleJournal.readRows(samplesFile);
    const sessionsFile = findInputFile(ctx.inputs, 'sessions.json');
    const sessionRecords = sessionsFile ? (JSON.parse(readFileSync(sessionsFile.file, 'utf8')) as SessionRecord[]) : null;
    const cohorts = ctx.config.cohorts as Record<string, { image: string }>;
    const images: ImageSize[] = Object.entries(cohorts).map(([cohort, c]) => {
      const pin = pins.images[c.image]!;
      return { cohort, image: c.image, compressedBytes: pin.layers.reduce((s, l) => s + l.size, 0) + pin.configSize, uncompressedBytes: pin.tarBytes };
    });
    // Each path's label: report.paths.<id>.reads, else its read size, BENCHGRAPH_LAZY_CHUNK (harness/paths/lazy-launch.sh); the first path is the one the peers are checked against.
    const paths = ctx.config.paths as Record<string, { env?: Record<string, string> }>;
    const readSizes = Object.fromEntries(
      Object.entries(paths).map(([id, p]) => [
        id,
        ctx.config.reportOptions.paths[id]?.reads ?? (p.env?.['BENCHGRAPH_LAZY_CHUNK'] ?? '64k').replace(/k$/, ' KiB').replace(/M$/, ' MiB'),
      ]),
    );
    const peerPath = Object.keys(paths)[0]!;
    const rules = ctx.config.rules;
    const shares = readShares(rows, images, peerPath, rules.bootstrap, readSizes);
    const exp = ctx.config.experiment;
    const options = ctx.config.reportOptions;
    const design = ctx.config.design;
    const readyDifferences = analysis.differences.filter((d) => d.metric === 'ready' && d.b === peerPath && !d.factor);
    const doc = readsDocument({
      title: options.title ?? exp.name,
      question: exp.question,
      scope: options.scope ?? 'one host, every transfer over loopback',
      readSizes,
      pathDescriptions: Object.fromEntries(Object.entries(ctx.config.paths).map(([id, p]) => [id, String((p as { description?: string }).description ?? id)])),
      shares,
      readyDifferences,
      sessions: design.sessions,
      rounds: design.rounds,
      unmeasured: exp.unmeasured ?? [],
      notes: notesForRun(options.notes, samplesInput.input.outputDigest),
      sessionRecords,
      noise: analysis.noise,
      provenance: Object.keys(ctx.inputs)
        .sort()
        .map((id) => `stage \`${id}\` (${ctx.inputs[id]!.kind}): ${ctx.inputs[id]!.outputDigest}`),
    });
    // The comparison files every experiment publishes alike (pipeline compare): Ready and Completion from analyze.
    const statistics = comparisonStatisticsCsv(
      analysis.cells.map((c) => ({ cohort: c.cohort, path: c.path, state: c.state, metric: c.metric, unit: 'ms', n: c.n, p50: c.p50Ms })),
    );
    const differences = writeDifferencesCsv(analysis.differences.filter((d) => !d.factor).map((d) => recordColumns(d, d.verdict?.verdict ?? 'undecided')));
    const reproduce = reproduceDocument({
      name: exp.name,
      pipelineFileName: relative(projectDirOf(ctx.pipelineFile), ctx.pipelineFile) || ctx.pipelineFile,
      needs: [
        'Debian 12 (bookworm) on x86_64 as root; `./setup.sh` installs the Debian packages (rclone, erofs-utils, nginx-light, crun, mmdebstrap, skopeo, umoci).',
      ],
      root: true,
      commandNotes: [
        `\`./bin/pipeline.js run -f ${relative(projectDirOf(ctx.pipelineFile), ctx.pipelineFile) || ctx.pipelineFile}\` publishes the new report to \`reports/${exp.name}/\`.`,
      ],
      howLong: [],
      reproduced: `The bytes depend on the images, the workloads and the read sizes, not on the host: your medians should be close to these. Compare the Ready differences with \`./bin/pipeline.js compare\`.`,
      stages: Object.keys(ctx.inputs)
        .sort()
        .map((id) => ({ id, kind: ctx.inputs[id]!.kind, outputDigest: ctx.inputs[id]!.outputDigest })),
      samplesSha256: null,
      commit: checkoutCommit(),
      versions: null,
    });
    const csvs = { 'differences.csv': differences, 'statistics.csv': statistics, [samplesCsvFile]: samplesCsv(rows) };
    await publish(ctx, {
      doc: withPreviousRunOf(ctx, doc, csvs, runCanaryOf(analysis.canary ?? null)),
      plots: [],
      csvs,
      reproduce,
      files: new Map([['reads.json', JSON.stringify(shares, null, 2) + '\n']]),
    });
  },
};

export default imageReadsReport;
