// The `pipeline` command: a thin dispatcher. It parses each command's flags
// with the one parser (parse-args.ts), answers --help and --version, and alone
// prints errors and chooses the exit code: 0 success, 1 a failed check or
// stage, 2 a user error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckFailed, Interrupted, UserError } from '../errors.js';
import { runCleanup, installShutdownHandlers } from '../process/cleanup.js';
import { installCompileCache } from '../process/compile-cache.js';
import { projectRoot } from '../process/project-root.js';
import type { CliCommand } from './cli-command.js';
import { formatHelp, parseArgs } from './parse-args.js';
import { writeErr, writeOut } from '../process/std-write.js';

/** A command of pipeline-commands.ts (every export there is one), loaded when it is called. */
const pipelineCommand = (name: keyof typeof import('./pipeline-commands.js')) => async (): Promise<CliCommand> =>
  (await import('./pipeline-commands.js'))[name];

/** The commands, in the order `pipeline --help` lists them. Add a command with one line. */
const commands: Record<string, () => Promise<CliCommand>> = {
  run: pipelineCommand('runCommand'),
  status: pipelineCommand('statusCommand'),
  audit: pipelineCommand('auditCommand'),
  gc: pipelineCommand('gcCommand'),
  show: pipelineCommand('showCommand'),
  measure: async () => (await import('./measure-command.js')).measureCommand,
  doctor: async () => (await import('./doctor-command.js')).doctorCommand,
  compare: async () => (await import('./compare-command.js')).compareCommand,
  init: async () => (await import('./init-command.js')).initCommand,
  history: async () => (await import('./history-command.js')).historyCommand,
  push: async () => (await import('./store-commands.js')).pushCommand,
  pull: async () => (await import('./store-commands.js')).pullCommand,
  'session-job': async () => (await import('./session-job-command.js')).sessionJobCommand,
};

export function version(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export async function usage(): Promise<string> {
  const rows: [string, string][] = [];
  for (const [name, load] of Object.entries(commands)) rows.push([name, (await load()).summary]);
  const width = Math.max(...rows.map(([n]) => n.length));
  return [
    'usage: pipeline <command> [flags]',
    '       pipeline <command> --help    flags of one command (or: pipeline help <command>)',
    '       pipeline --version',
    '',
    'commands:',
    ...rows.map(([n, s]) => `  ${n.padEnd(width)}  ${s}`),
    '',
  ].join('\n');
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    writeOut(`pipeline (benchgraph) ${version()}\n`);
    return 0;
  }
  if (name === 'help' && rest[0] !== undefined) return dispatch([rest[0], '--help']);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    writeOut(await usage());
    return name ? 0 : 2;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) throw new UserError(`unknown command '${name}'`, { key: 'pipeline' }, 'run `pipeline --help` for the list');
  const command = await load();
  const parsed = parseArgs(rest, command.flags);
  if (parsed.help) {
    writeOut(formatHelp(command.usage, command.about, command.flags));
    return 0;
  }
  if (parsed.positional.length > 0 && !command.positionals) {
    throw new UserError(`unexpected argument '${parsed.positional[0]}'`, { key: name }, `usage: ${command.usage}`);
  }
  return command.run(parsed);
}

export async function main(argv: string[]): Promise<void> {
  installCompileCache(); // before any command loads the yaml parser and the schema validators
  installShutdownHandlers();
  let code: number;
  try {
    code = await dispatch(argv);
  } catch (e) {
    code = report(e);
  }
  for (const f of await runCleanup()) writeErr(f + '\n');
  process.exitCode = code;
}

function report(e: unknown): number {
  if (e instanceof UserError) {
    writeErr(
      e
        .format()
        .split('\n')
        .map((l) => `error: ${l}\n`)
        .join(''),
    );
    return 2;
  }
  if (e instanceof CheckFailed) {
    writeErr(`failed: ${e.message}\n`);
    for (const d of e.details) writeErr(`  ${d}\n`);
    return 1;
  }
  if (e instanceof Interrupted || (e as Error)?.name === 'AbortError') {
    writeErr(`stopped: ${(e as Error).message}\n`);
    return 130;
  }
  writeErr(`internal error (a bug in benchgraph, please report it with this trace):\n${(e as Error)?.stack ?? String(e)}\n`);
  return 1;
}
