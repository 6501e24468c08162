// The undo stack's signal path in a real child process (its undo is made up):
// the same signal twice exits at once, naming what is left; another signal
// while undoing (a test runner's SIGTERM right after the terminal's SIGINT)
// lets the undo finish. Each step waits for the child's own line, not for time.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_NODE_FLAGS } from '../harness/process/cli-argv.js';
import { projectRoot, tempDir } from './helpers/cli.js';

interface Child {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves once the stream has printed the text. */
  printed: (stream: 'stdout' | 'stderr', text: string) => Promise<void>;
  exit: Promise<number | null>;
}

function startChild(marker: string): Child {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, join(projectRoot, 'dist', 'test', 'helpers', 'undo-child.js'), marker], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const text = { stdout: '', stderr: '' };
  const waiters: { stream: 'stdout' | 'stderr'; text: string; done: () => void }[] = [];
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream]!.on('data', (b) => {
      text[stream] += b;
      for (const w of waiters.filter((x) => x.stream === stream && text[stream].includes(x.text))) w.done();
    });
  const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const printed = (stream: 'stdout' | 'stderr', t: string): Promise<void> =>
    text[stream].includes(t) ? Promise.resolve() : new Promise((done) => waiters.push({ stream, text: t, done }));
  return { child, stderr: () => text.stderr, printed, exit };
}

test('a SIGTERM right after SIGINT, while undoing, lets the undo finish; the exit code is SIGINT’s', async (t) => {
  const marker = join(tempDir(), 'undone');
  const c = startChild(marker);
  await c.printed('stdout', 'ready\n');
  c.child.kill('SIGINT');
  await c.printed('stdout', 'undoing\n');
  c.child.kill('SIGTERM');
  // the SIGTERM's notice is on stderr before the undo is let go
  await c.printed('stderr', 'SIGTERM while undoing');
  c.child.stdin!.write('go\n');
  t.is(await c.exit, 130, c.stderr());
  t.true(existsSync(marker), 'the undo ran to its end');
  t.regex(c.stderr(), /SIGTERM while undoing after SIGINT: the undo goes on \(SIGINT again exits at once\)/);
});

test('SIGINT twice exits at once, naming the undo still to run', async (t) => {
  const marker = join(tempDir(), 'undone');
  const c = startChild(marker);
  await c.printed('stdout', 'ready\n');
  c.child.kill('SIGINT');
  await c.printed('stdout', 'undoing\n');
  c.child.kill('SIGINT');
  t.is(await c.exit, 130, c.stderr());
  t.false(existsSync(marker));
  t.regex(c.stderr(), /SIGINT again: exiting now; still to undo: /);
});

test('with the reader of its stderr gone (a tee stopped by the same Ctrl-C), a SIGINT still runs the undo to its end', async (t) => {
  const marker = join(tempDir(), 'undone');
  const c = startChild(marker);
  await c.printed('stdout', 'ready\n');
  c.child.stderr!.destroy();
  c.child.kill('SIGINT');
  await c.printed('stdout', 'undoing\n');
  c.child.stdin!.write('go\n');
  t.is(await c.exit, 130);
  t.true(existsSync(marker), 'the undo ran to its end');
});
