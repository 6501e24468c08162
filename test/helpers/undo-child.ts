// A child process for test/process-cleanup-signals.test.ts: registers one undo
// that says "undoing" and waits for a line on stdin before it writes the marker
// file named by argv[2]; prints "ready" once the undo is registered.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { onCleanup } from '../../harness/process/cleanup.js';

const marker = process.argv[2]!;
const lines = createInterface({ input: process.stdin });
const nextLine = (): Promise<void> => new Promise((done) => lines.once('line', () => done()));
onCleanup('made-up daemon', async () => {
  process.stdout.write('undoing\n');
  await nextLine();
  writeFileSync(marker, 'undone\n');
});
process.stdout.write('ready\n');
// stays until a signal's undo path exits
setInterval(() => undefined, 1 << 30);
