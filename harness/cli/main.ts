// The `pipeline` command: a thin dispatcher. It alone prints errors and
// chooses the exit code: 0 success, 1 a failed check or stage, 2 a user error.
import { CheckFailed, UserError } from '../errors.js';
import { runCleanup, installShutdownHandlers } from '../process/cleanup.js';
import { auditCommand, gcCommand, runCommand, showCommand, statusCommand } from './pipeline-commands.js';

const USAGE = `usage: pipeline <command> [flags]

  run     [-f FILE] [--data DIR] [--only ID,..] [--force ID,..] [--set KEY=VALUE ..] [--dry-run] [--json]
  status  [-f FILE] [--json]          which stages are fresh or stale, and why
  audit   [-f FILE] [--json]          re-hash every frozen output, pinned artifact and report
  gc      [-f FILE] [--dry-run]       remove frozen outputs, scratch and build cache no lock file needs
  show    ID [-f FILE]                print a stage's manifest
  measure [--runs N] [--warmup N] [--marker TEXT] [--timeout S] [--json] -- CMD ARGS..
  doctor                              list requirements and whether they are met
`;

type Command = (args: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  run: async () => runCommand,
  status: async () => statusCommand,
  audit: async () => auditCommand,
  gc: async () => gcCommand,
  show: async () => showCommand,
  measure: async () => (await import('./measure-command.js')).measureCommand,
  doctor: async () => (await import('./doctor-command.js')).doctorCommand,
};

export async function main(argv: string[]): Promise<void> {
  installShutdownHandlers();
  const [name, ...rest] = argv;
  let code: number;
  try {
    if (!name || name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(USAGE);
      code = name ? 0 : 2;
    } else {
      const load = commands[name];
      if (!load) throw new UserError(`unknown command '${name}'`, { key: 'pipeline' }, 'run `pipeline --help` for the list');
      code = await (await load())(rest);
    }
  } catch (e) {
    code = report(e);
  }
  for (const f of await runCleanup()) process.stderr.write(f + '\n');
  process.exitCode = code;
}

function report(e: unknown): number {
  if (e instanceof UserError) {
    process.stderr.write(`error: ${e.format()}\n`);
    return 2;
  }
  if (e instanceof CheckFailed) {
    process.stderr.write(`failed: ${e.message}\n`);
    for (const d of e.details) process.stderr.write(`  ${d}\n`);
    return 1;
  }
  if ((e as Error)?.name === 'AbortError' || (e as Error)?.message?.startsWith('interrupted by')) {
    process.stderr.write(`stopped: ${(e as Error).message}\n`);
    return 130;
  }
  process.stderr.write(`internal error (a bug in benchgraph, please report it with this trace):\n${(e as Error)?.stack ?? String(e)}\n`);
  return 1;
}
