// A TCP proxy on 127.0.0.1 in front of one loopback service, attributing the
// bytes the service sends to the launch in progress (one window at a time):
//   responseBytes: every byte the server sent on its TCP streams;
//   contentBytes:  HTTP payload bytes (de-chunked) of 200/206 responses to GET
//                  requests whose path matches `contentPath` (default: any).
// Bytes that arrive while no window is open belong to no launch. The window
// also times them (byte-window.ts): the content bytes by Ready, and how long
// the launch waited on the server, by Ready and in all.

import { lookup } from 'node:dns/promises';
import { createServer, connect, isIP, type Server, type Socket } from 'node:net';
import { UserError } from '../errors.js';
import { RequestStream, ResponseStream, statelessRegExp } from './http-stream-parser.js';
import { isLoopbackAddress } from './loopback.js';
import { ByteWindow, type ByteCounts } from './byte-window.js';

export interface CountingProxy {
  host: string;
  port: number;
  begin(launchId: string): void;
  /** Closes the window: its totals, and their part up to `readyMs` after it opened (byte-window.ts). */
  end(readyMs?: number | null): ByteCounts;
  close(): Promise<void>;
}

export async function startCountingProxy(opts: { upstreamHost: string; upstreamPort: number; contentPath?: RegExp }): Promise<CountingProxy> {
  const upstreamHost = await loopbackUpstream(opts.upstreamHost);
  if (!Number.isInteger(opts.upstreamPort) || opts.upstreamPort < 1 || opts.upstreamPort > 65535) {
    throw new UserError(`upstream port ${opts.upstreamPort} is not a TCP port`);
  }
  const contentPath = statelessRegExp(opts.contentPath ?? /(?:)/);
  const sockets = new Set<Socket>();
  let window: ByteWindow | null = null;
  /** Connections with a request outstanding: the launch is waiting on the server while any is. */
  const waitingOn = new Set<Socket>();

  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = connect({ host: upstreamHost, port: opts.upstreamPort, allowHalfOpen: true });
    sockets.add(client);
    sockets.add(upstream);
    const requests = new RequestStream();
    const responses = new ResponseStream(requests, contentPath);
    const track = (): void => {
      const was = waitingOn.size > 0;
      if (requests.pending.length > 0 || responses.inBody) waitingOn.add(client);
      else waitingOn.delete(client);
      if (window && was !== waitingOn.size > 0) window.waiting(performance.now(), !was);
    };
    client.on('data', (chunk: Buffer) => {
      requests.push(chunk);
      track();
    });
    upstream.on('data', (chunk: Buffer) => {
      const content = responses.push(chunk);
      window?.received(performance.now(), chunk.length, content);
      track();
    });
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    // The client gone: nobody can read the rest. The server gone: flush and end.
    client.on('close', () => {
      sockets.delete(client);
      if (waitingOn.delete(client) && waitingOn.size === 0) window?.waiting(performance.now(), false);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (!client.writableEnded && !client.destroyed) client.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('counting proxy has no TCP address');

  return {
    host: '127.0.0.1',
    port: address.port,
    begin(launchId: string): void {
      if (window) throw new Error(`byte window for ${window.launchId} is still open; cannot begin ${launchId}`);
      window = new ByteWindow(launchId, performance.now(), waitingOn.size > 0);
    },
    end(readyMs: number | null = null): ByteCounts {
      if (!window) throw new Error('no byte window is open');
      const totals = window.totals(performance.now(), readyMs);
      window = null;
      return totals;
    },
    async close(): Promise<void> {
      window = null;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      sockets.clear();
      await closed;
    },
  };
}

/** The upstream as a loopback IP address; anything else is refused. */
async function loopbackUpstream(host: string): Promise<string> {
  if (isIP(host)) {
    if (!isLoopbackAddress(host)) throw refuse(host);
    return host;
  }
  if (host !== 'localhost') throw refuse(host);
  const addresses = await lookup(host, { all: true });
  const first = addresses[0];
  if (!first || !addresses.every((a) => isLoopbackAddress(a.address))) throw refuse(host);
  return first.address;
}

function refuse(host: string): UserError {
  return new UserError(
    `counting proxy upstream ${host} is not a loopback address`,
    {},
    'services must listen on 127.0.0.1 or ::1; the project sends no traffic off this machine',
  );
}
