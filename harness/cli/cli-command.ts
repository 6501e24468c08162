// The shape of a `pipeline` subcommand: its flags as data (which also give its
// --help), a one-line summary for `pipeline --help`, and run(), which gets the
// parsed flags and returns the exit code.
import type { FlagSpec, ParsedArgs } from './parse-args.js';

export interface CliCommand {
  /** One line for `pipeline --help`. */
  summary: string;
  /** What follows `usage: ` in the command's --help, e.g. `pipeline show ID [-f FILE]`. */
  usage: string;
  /** A few lines on what the command does, for its --help. */
  about: string;
  flags: FlagSpec;
  /** Takes positional arguments; without this they are refused. */
  positionals?: boolean;
  run(parsed: ParsedArgs): Promise<number>;
}
