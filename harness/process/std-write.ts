// The CLI's own lines to stdout and stderr, written straight to descriptors 1
// and 2. process.stdout and process.stderr are built on first use, and for a
// pipe (a script, a test, a CI log) that builds a socket and loads Node's
// stream and net modules: about 1 ms of every command's start, and most of
// what a no-op rerun writes is two lines. On Linux those streams write
// synchronously to pipes, files and terminals alike, so lines written either
// way keep their order.
import { writeSync } from 'node:fs';

/** Writes `text` to stdout. */
export function writeOut(text: string): void {
  writeAll(1, text);
}

/** Writes `text` to stderr. */
export function writeErr(text: string): void {
  writeAll(2, text);
}

function writeAll(fd: 1 | 2, text: string): void {
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    let n: number;
    try {
      n = writeSync(fd, rest);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return; // the reader has gone (`pipeline status | head -1`): nobody is left to read the rest
      if (code !== 'EAGAIN') throw e;
      // a non-blocking descriptor that is full: the stream queues what is left and drains it before exit
      (fd === 1 ? process.stdout : process.stderr).write(rest);
      return;
    }
    rest = rest.subarray(n);
  }
}
