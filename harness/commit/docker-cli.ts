// Effects: the Docker CLI of the Debian engine against one private engine's
// unix socket. Untimed operations only (setup, inspection, cleanup); measured
// commands go through the C launch helper.
import { execFile } from 'node:child_process';
import { dockerCli } from '../services/docker-engine-service.js';

export interface DockerTarget {
  socket: string;
  signal?: AbortSignal;
}

/** Runs `docker -H unix://SOCKET ARGS...`; resolves with stdout, rejects with stderr in the message. */
export function docker(target: DockerTarget, args: string[], timeoutMs = 600_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      dockerCli(),
      ['-H', `unix://${target.socket}`, ...args],
      { maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs, signal: target.signal, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`docker ${args.slice(0, 2).join(' ')} failed: ${(stderr || err.message).trim().slice(-800)}`));
        else resolve(stdout);
      },
    );
  });
}

/** The argv of a docker command on this engine (for the launch helper). */
export function dockerArgv(socket: string, args: string[]): string[] {
  return [dockerCli(), '-H', `unix://${socket}`, ...args];
}
