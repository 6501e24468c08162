// Pure: does a launch's result pass its path's output check?

import type { LaunchResult } from './launch-types.js';

export interface OutputExpectation {
  exit_code: number;
  /** Regular expressions; each must match at least one line of the kept stdout tail. */
  stdout_patterns: string[];
}

export function checkOutput(result: LaunchResult, expect: OutputExpectation): { ok: boolean; reason: string | null } {
  if (result.state !== 'ok') {
    return { ok: false, reason: result.failureReason ?? `launch ${result.state}` };
  }
  if (result.exitCode !== expect.exit_code) {
    return { ok: false, reason: `exit code ${result.exitCode ?? 'none'}, expected ${expect.exit_code}` };
  }
  const lines = result.stdoutTail.split(/\r?\n/);
  for (const pattern of expect.stdout_patterns) {
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch (e) {
      return { ok: false, reason: `stdout pattern /${pattern}/ is not a valid regular expression: ${(e as Error).message}` };
    }
    if (!lines.some((line) => re.test(line))) {
      return { ok: false, reason: `no stdout line matches /${pattern}/` };
    }
  }
  return { ok: true, reason: null };
}
