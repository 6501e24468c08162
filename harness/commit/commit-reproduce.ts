// REPRODUCE.md of the commit-diff experiment, through the kit's document
// (publish/reproduce-document.ts): what this experiment needs (root, two
// private dockerd engines, the overlay redirect_dir switch), the commands and
// the stages' output digests. Pure.
import { paragraph, type ReportDocument } from '../document/document-model.js';
import { fixed } from '../publish/format-number.js';
import { reproduceDocument } from '../publish/reproduce-document.js';
import type { CommitReportInputs } from './commit-report-inputs.js';

/** The tools commit-diff runs: the two engines and what they start. */
const COMMIT_TOOLS = ['dockerd', 'containerd', 'runc', 'docker'];

export function commitReproduceDocument(inp: CommitReportInputs): ReportDocument {
  const f = inp.pipelineFileName;
  return reproduceDocument({
    name: inp.experiment.name,
    pipelineFileName: f,
    needs: [
      'Debian 12 (bookworm) on x86_64; `./setup.sh` installs the Debian packages (docker.io, containerd, runc).',
      'root: the run starts two private dockerd engines and sets /sys/module/overlay/parameters/redirect_dir for the moment the naive engine starts (restored at once, on exit, on SIGINT/SIGTERM, and at the next start after a SIGKILL).',
      'Kernel features: overlay (`modprobe overlay`).',
    ],
    root: true,
    extraCommands: [`./bin/pipeline.js audit -f ${f}`],
    commandNotes: ['Re-analyse only: `--set analysis.bootstrap.resamples=5000` reruns commit-analyze and commit-report.'],
    howLong: inp.session.durationS ? [paragraph(`On the host described in report.md, the sampling took ${fixed(inp.session.durationS / 60, 0)} min.`)] : [],
    reproduced: `Compare your new \`reports/${inp.experiment.name}/\` with this folder using \`./bin/pipeline.js compare\`: each detected naive/native ratio should hold in direction.`,
    stages: inp.stages,
    samplesSha256: inp.samplesSha256,
    commit: inp.commit ?? null,
    versions: inp.pins
      ? [
          ...(inp.pins.kernel ? [`kernel: ${inp.pins.kernel}`] : []),
          ...(inp.pins.node ? [`node: ${inp.pins.node}`] : []),
          ...(inp.pins.binaries ?? [])
            .filter((b) => COMMIT_TOOLS.includes(b.name))
            .map((b) => `${b.name} ${b.version ?? '(version unknown)'}: sha256 ${b.sha256 ?? '-'}${b.path ? ` (${b.path})` : ''}`),
        ]
      : null,
  });
}
