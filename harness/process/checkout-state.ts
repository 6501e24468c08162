// Effects: the git work tree a folder lies in, and whether its tracked files
// differ from its commit. What runs write there themselves (published
// reports/ and lock files) does not make a checkout dirty: a rerun after a
// publish is still the same commit's.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface CheckoutState {
  /** The work tree's top folder. */
  root: string;
  sha: string;
  dirty: boolean;
  /** Tracked files that differ from the commit (outputs of runs left out), repository-relative. */
  changed: string[];
}

/** git's output as it is (porcelain lines start with a status column that may be a space). */
const git = (args: string[], cwd: string): string | null => {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
};

/** git's output, from a child that runs while the caller goes on. */
const gitAsync = (args: string[], cwd: string): Promise<string | null> =>
  new Promise((done) => execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout) => done(error ? null : stdout)));

/** Outputs of runs: published report folders and lock files. */
const isRunOutput = (path: string): boolean => path.startsWith('reports/') || path.includes('/reports/') || path.endsWith('.lock');

/**
 * Whether git could find a repository from `dir`: a `.git` entry in it or a
 * folder above, or GIT_DIR set. Without one, git answers "not a repository",
 * so its start (a fork and exec) is saved.
 */
function mayBeInRepository(dir: string): boolean {
  if (process.env['GIT_DIR'] !== undefined) return true;
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

/**
 * The two questions, each one git start, asked from `dir` itself: porcelain
 * status paths are relative to the work tree's top whatever the folder, so
 * the two can run at once.
 */
const REV_PARSE = ['rev-parse', '--show-toplevel', 'HEAD'];
const STATUS = ['status', '--porcelain', '--untracked-files=no'];

/** The state from git's two answers (pure): null unless rev-parse named a top folder and a commit. */
function fromAnswers(revParse: string | null, status: string | null): CheckoutState | null {
  const [root, sha] = (revParse ?? '').trim().split('\n');
  if (!root || !sha || !/^[0-9a-f]{40}$/.test(sha)) return null;
  const changed = (status ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3).replace(/^.* -> /, ''))
    .filter((p) => !isRunOutput(p));
  return { root, sha, dirty: changed.length > 0, changed };
}

/** null when `dir` is not in a git work tree (or git is missing). */
export function checkoutState(dir: string): CheckoutState | null {
  if (!mayBeInRepository(dir)) return null;
  return fromAnswers(git(REV_PARSE, dir), git(STATUS, dir));
}

/** checkoutState with git's two starts running at once and beside the caller's own work (`pipeline run` plans meanwhile). */
export async function checkoutStateAsync(dir: string): Promise<CheckoutState | null> {
  if (!mayBeInRepository(dir)) return null;
  const [revParse, status] = await Promise.all([gitAsync(REV_PARSE, dir), gitAsync(STATUS, dir)]);
  return fromAnswers(revParse, status);
}
