// analyze: formal samples from samples.duckdb (grouped and counted in SQL) to
// analysis.json (statistics in pure TypeScript, harness/stats). The rules come
// from `analysis:`; sampling settings reach this stage only through the
// digest of its upstream outputs. What run() needs is imported inside it, so
// a command that only plans (a no-op rerun, status) does not load the analysis.
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { StageDefinition } from '../harness/contract/stage.js';
import { needInputFile, findInputFile } from '../harness/contract/exchange-files.js';
import type { ConfirmRecord } from '../harness/experiment/confirm-work.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { readArchive, replicateFiles } from '../harness/analysis/read-replicates.js';
import { crossClass, ownRunOf } from '../harness/analysis/cross-class.js';
import { canaryPieceMedians, sameClassReplicates } from '../harness/analysis/same-class-replicates.js';
import type { ReplicateInput } from '../harness/analysis/rerun-results.js';
import { readLooks } from '../harness/comparison/looks-file.js';

/** with: { replicates: FOLDER }, relative to the pipeline file. */
const replicatesParam = (params: Record<string, unknown>): string | null =>
  typeof params['replicates'] === 'string' && params['replicates'] ? params['replicates'] : null;

const analyze: StageDefinition = {
  kind: 'analyze',
  description: 'Per-cell statistics, clusters, dominance, paired-round bootstrap differences and byte counts from the formal samples',
  // report.paths (their stacks) and report.source: the named findings the report states are decided here (analysis-findings.ts)
  reads: ['analysis', 'experiment', 'report.paths', 'report.source'],
  readsObservations: true, // preparation times go into analysis.json
  // with: { replicates: FOLDER } — archived runs (reports/<experiment>/runs); their run.json and samples.csv join the key.
  inputFiles: (params, { pipelineDir, needs }) => {
    const dir = replicatesParam(params);
    return dir ? replicateFiles(dir, Object.values(needs), pipelineDir) : [];
  },
  async run(ctx) {
    const samples = needInputFile(ctx, 'samples.duckdb', 'sample or import-samples', 'add a sample or import-samples stage to needs');
    const [{ analyzeSamplesInWorkers }, { readPreparation }, { readSamples }, { hostOf }, { findingsConfig, withFindings }, { sourceGapFacts }] =
      await Promise.all([
        import('../harness/analysis/analyze-in-workers.js'),
        import('../harness/analysis/read-preparation.js'),
        import('../harness/analysis/read-samples.js'),
        import('../harness/analysis/replicate-runs.js'),
        import('../harness/analysis/analysis-findings.js'),
        import('../harness/analysis/source-gap-facts.js'),
      ]);
    const { sessionNoise } = await import('../harness/analysis/session-noise.js');
    const rules = ctx.config.rules;
    const data = await readSamples(samples.file);
    const prep = findInputFile(ctx.inputs, 'preparation.json');
    const preparation = prep ? await readPreparation(prep.file) : null;
    // design.confirm: the sample stage's decision; each difference is then also judged on the planned sessions alone.
    const confirmFile = findInputFile(ctx.inputs, 'confirm.json');
    const confirm = confirmFile ? (JSON.parse(await readFile(confirmFile.file, 'utf8')) as ConfirmRecord) : null;
    // Replicates: archived runs whose sample stage had this run's key. The store keeps a stage's
    // outputs at <data>/stages/<kind>/<key>/outputs, so the key is the folder above them.
    const sessionsFile = findInputFile(ctx.inputs, 'sessions.json');
    const sessions = sessionsFile ? (JSON.parse(await readFile(sessionsFile.file, 'utf8')) as SessionRecord[]) : [];
    const host = hostOf(sessions.map((s) => s.fingerprint));
    const folder = replicatesParam(ctx.params);
    // a rerun interval says where a rerun on this host class lands: same-key runs of another class by the canary are left out
    const identity = { key: basename(dirname(samples.input.outputDir)), outputDigest: samples.input.outputDigest };
    const archive = folder ? readArchive(resolve(ctx.pipelineDir, folder), identity) : { replicates: [], canaries: [], ownCanary: null, published: [] };
    // the run's canary from its launches, or, for imported samples that hold none, from its own archived copy
    const own = canaryPieceMedians(data.canary ?? []) ?? archive.ownCanary;
    const placed = sameClassReplicates(own, archive.replicates, archive.canaries);
    const replicates: ReplicateInput = { host, folder: folder ?? '', runs: placed.kept, otherClass: placed.otherClass };
    const started = performance.now();
    const analysed = await analyzeSamplesInWorkers(
      data,
      rules,
      preparation,
      confirm ? { plannedSessions: confirm.plannedSessions, session: confirm.session } : null,
      undefined,
      replicates,
    );
    // design.adaptive: the run looked after every session, so its verdicts are the sequential rule's (comparison/judge.ts through sequential-analysis.ts).
    const adaptiveFile = findInputFile(ctx.inputs, 'adaptive.json');
    const looks = readLooks(adaptiveFile);
    const { withSequentialVerdicts } = await import('../harness/comparison/sequential-analysis.js');
    const judged = looks ? withSequentialVerdicts(analysed, data.values, looks, rules.practical) : analysed;
    const found = withFindings(judged, findingsConfig(ctx.config));
    // where its Ready ratios hold across the host classes of the archive (cross-class.ts)
    const classes = crossClass(ownRunOf(identity.key, own, found.cells, found.differences), archive.published);
    const result = classes ? { ...found, crossClass: classes } : found;
    ctx.log(
      `analyze: ${data.values.length} valid formal launches, ${result.cells.length} cells, ` +
        `${result.differences.length} differences x ${rules.bootstrap.resamples} resamples in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `rerun intervals from ${result.rerun.source === 'replicates' ? `${replicates.runs.length} replicate run(s)` : 'the host-kind figure'}`,
    );
    // The noise flag is calibrated on the canary: it needs the session records beside the samples.
    const noise = sessionNoise(sessions, result.canary);
    // the on-demand read facts the report's "why this differs" paragraph words (harness/report/source-gap-phrases.ts)
    const written = { ...result, ...(noise ? { noise } : {}), sourceGap: sourceGapFacts(result) };
    await writeFile(join(ctx.outputDir, 'analysis.json'), JSON.stringify(written, null, 2) + '\n');
  },
};

export default analyze;
