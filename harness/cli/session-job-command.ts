// `pipeline session-job SPEC`: runs one sampling session described by a spec
// file that the sample stage wrote into the shared data folder. Slurm jobs run
// it on their nodes; a user never needs to.
import { UserError } from '../errors.js';
import { runSessionJob } from '../executors/session-job.js';
import type { CliCommand } from './cli-command.js';

export const sessionJobCommand: CliCommand = {
  summary: 'internal: run one sampling session from its spec file (what a Slurm job runs)',
  usage: 'pipeline session-job SPEC',
  about: 'Starts the services on this host, runs the session into its own DuckDB file beside SPEC, and stops them.',
  flags: {},
  positionals: true,
  run: async ({ positional }) => {
    if (positional.length !== 1) throw new UserError('needs exactly one spec file', { key: 'session-job' }, 'usage: pipeline session-job SPEC');
    const record = await runSessionJob(positional[0]!, (line) => process.stderr.write(line + '\n'));
    process.stdout.write(`session ${record.session} (attempt ${record.attempt}) done on ${record.host}\n`);
    return 0;
  },
};
