// REPRODUCE.md of the commit-diff experiment (pure): the commands and the stages' output digests.
import type { CommitReportInputs } from './commit-report-inputs.js';

export function renderCommitReproduce(inp: CommitReportInputs): string {
  const f = inp.pipelineFileName;
  return [
    `# Reproducing "${inp.experiment.name}"`,
    '',
    'As root on Debian 12, in a clone of benchgraph:',
    '',
    '```',
    './setup.sh',
    `./bin/pipeline.js run -f ${f}`,
    `./bin/pipeline.js audit -f ${f}`,
    '```',
    '',
    'The run needs root: it starts two private dockerd engines and sets /sys/module/overlay/parameters/redirect_dir for the moment the naive engine starts (restored at once, on exit, on SIGINT/SIGTERM, and at the next start after a SIGKILL). Re-analyse only: `--set analysis.bootstrap.resamples=5000` reruns commit-analyze and commit-report.',
    '',
    '## Stages and output digests',
    '',
    ...inp.stages.map((s) => `- \`${s.id}\` (${s.kind}): ${s.outputDigest}`),
    '',
  ].join('\n');
}
