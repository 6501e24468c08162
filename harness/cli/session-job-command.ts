// `pipeline session-job SPEC`: runs one sampling session described by a spec
// file that the sample stage wrote into the shared data folder. Slurm jobs run
// it on their nodes; a user never needs to. Every sampling stage is on the
// experiment model, so the job loads the spec's stage module, which registers
// its arm adapter, and runs that.
import { UserError } from '../errors.js';
import { runSessionJob, sessionJobKind } from '../executors/session-job.js';
import { projectStageRegistry } from '../engine/stage-registry.js';
import type { CliCommand } from './cli-command.js';

export const sessionJobCommand: CliCommand = {
  summary: 'internal: run one sampling session from its spec file (what a Slurm job runs)',
  usage: 'pipeline session-job SPEC',
  about: 'Starts the services on this host, runs the session into its own DuckDB file beside SPEC, and stops them.',
  flags: {},
  positionals: true,
  run: async ({ positional }) => {
    if (positional.length !== 1) throw new UserError('needs exactly one spec file', { key: 'session-job' }, 'usage: pipeline session-job SPEC');
    // The stage registers its arm adapter when its module loads; the job rebuilds it from there.
    await projectStageRegistry(null).load(sessionJobKind(positional[0]!));
    const record = await runSessionJob(positional[0]!, (line) => process.stderr.write(line + '\n'));
    process.stdout.write(`session ${record.session} (attempt ${record.attempt}) done on ${record.host}\n`);
    return 0;
  },
};
