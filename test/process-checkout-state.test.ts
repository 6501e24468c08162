// checkoutState answers as git does, with or without starting git.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkoutState } from '../harness/process/checkout-state.js';
import { tempDir } from './helpers/cli.js';

test('a folder with no .git in it or above is not a checkout, as git itself says', (t) => {
  const dir = join(tempDir('benchgraph-checkout-'), 'a', 'b');
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env };
  delete env['GIT_DIR'];
  t.not(spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, env }).status, 0, 'git finds no work tree here');
  t.is(checkoutState(dir), null);
});

test('a folder below a committed work tree is a clean checkout, and an edited tracked file makes it dirty', (t) => {
  const root = tempDir('benchgraph-checkout-');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(root, 'f.txt'), 'one\n');
  mkdirSync(join(root, 'sub'));
  git('add', 'f.txt');
  git('commit', '-qm', 'one');
  const clean = checkoutState(join(root, 'sub'));
  t.is(clean?.dirty, false);
  writeFileSync(join(root, 'f.txt'), 'two\n');
  t.deepEqual(checkoutState(join(root, 'sub'))?.changed, ['f.txt']);
});
