import test from 'ava';
import { createServer as createHttpServer, request, Agent, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer } from 'node:net';
import { UserError } from '../harness/errors.js';
import { startCountingProxy, type CountingProxy } from '../harness/net/counting-proxy.js';

const blob = Buffer.alloc(100_000, 7);
const BLOBS = /\/v2\/.+\/blobs\//;

let server: HttpServer;
let port: number;

test.before(async () => {
  server = createHttpServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/v2/img/blobs/sha256:len') {
      res.setHeader('Content-Length', blob.length);
      res.end(req.method === 'HEAD' ? undefined : blob);
    } else if (url === '/v2/img/blobs/sha256:chunked') {
      // No Content-Length: node sends chunked framing; several chunks of different sizes.
      res.write(blob.subarray(0, 1));
      res.write(blob.subarray(1, 40_000));
      setTimeout(() => res.end(blob.subarray(40_000)), 10);
    } else if (url === '/v2/img/blobs/sha256:range') {
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!m) {
        res.statusCode = 416;
        res.end();
        return;
      }
      const [from, to] = [Number(m[1]), Number(m[2])];
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${from}-${to}/${blob.length}`);
      res.setHeader('Content-Length', to - from + 1);
      res.end(blob.subarray(from, to + 1));
    } else if (url === '/v2/img/blobs/sha256:slow') {
      setTimeout(() => {
        res.setHeader('Content-Length', 1000);
        res.end(blob.subarray(0, 1000));
      }, 150);
    } else if (url === '/v2/img/manifests/latest') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ schemaVersion: 2 }));
    } else if (url === '/v2/img/blobs/sha256:missing') {
      res.statusCode = 404;
      res.end('not found here');
    } else if (url === '/v2/img/blobs/sha256:none') {
      res.statusCode = 204;
      res.end();
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

test.after.always(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function withProxy(fn: (proxy: CountingProxy, agent: Agent) => Promise<void>, contentPath: RegExp = BLOBS): Promise<void> {
  const proxy = await startCountingProxy({ upstreamHost: '127.0.0.1', upstreamPort: port, contentPath });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await fn(proxy, agent);
  } finally {
    agent.destroy();
    await proxy.close();
  }
}

function get(
  proxy: CountingProxy,
  agent: Agent,
  path: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Buffer; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.host, port: proxy.port, path, agent, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), res }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('the proxy counts the exact body bytes of a Content-Length response', async (t) => {
  await withProxy(async (proxy, agent) => {
    proxy.begin('l1');
    const r = await get(proxy, agent, '/v2/img/blobs/sha256:len');
    const counts = proxy.end();
    t.is(r.body.length, blob.length);
    t.is(counts.contentBytes, blob.length);
    t.true(counts.responseBytes > blob.length);
  });
});

test('the proxy counts the de-chunked payload bytes of a chunked response', async (t) => {
  await withProxy(async (proxy, agent) => {
    proxy.begin('l1');
    const r = await get(proxy, agent, '/v2/img/blobs/sha256:chunked');
    const counts = proxy.end();
    t.is(r.res.headers['transfer-encoding'], 'chunked');
    t.is(counts.contentBytes, blob.length);
    t.true(counts.responseBytes > blob.length + 3 * 5); // chunk-size lines and CRLFs are framing
  });
});

test('the proxy counts the exact body bytes of Range (206) responses', async (t) => {
  await withProxy(async (proxy, agent) => {
    proxy.begin('l1');
    const a = await get(proxy, agent, '/v2/img/blobs/sha256:range', { headers: { Range: 'bytes=0-65535' } });
    const b = await get(proxy, agent, '/v2/img/blobs/sha256:range', { headers: { Range: 'bytes=70000-70099' } });
    const counts = proxy.end();
    t.is(a.status, 206);
    t.is(b.status, 206);
    t.is(counts.contentBytes, 65_536 + 100);
  });
});

test('the window times its bytes and its waiting: the bytes by Ready, and the time a request was outstanding, idle gaps excluded', async (t) => {
  await withProxy(async (proxy, agent) => {
    const opened = performance.now();
    proxy.begin('l1');
    await get(proxy, agent, '/v2/img/blobs/sha256:range', { headers: { Range: 'bytes=0-65535' } });
    const readyMs = performance.now() - opened; // "Ready" after the first response, before the slow one is asked
    await new Promise((r) => setTimeout(r, 100)); // idle: nothing outstanding
    await get(proxy, agent, '/v2/img/blobs/sha256:slow'); // the server answers after 150 ms
    const elapsedMs = performance.now() - opened;
    const counts = proxy.end(readyMs);
    t.is(counts.contentBytes, 65_536 + 1000);
    t.is(counts.readyContentBytes, 65_536);
    t.true(counts.fetchWaitMs >= 150, `waited ${counts.fetchWaitMs} ms in all`);
    t.true(counts.fetchWaitMs <= elapsedMs - 100, `the 100 ms idle gap is not waiting: ${counts.fetchWaitMs} of ${elapsedMs} ms`);
    t.true(counts.readyFetchWaitMs! > 0 && counts.readyFetchWaitMs! <= readyMs, `by Ready: ${counts.readyFetchWaitMs} of ${readyMs} ms`);
    t.true(counts.readyFetchWaitMs! < counts.fetchWaitMs - 100);
    proxy.begin('l2');
    t.deepEqual(proxy.end(null), { contentBytes: 0, responseBytes: 0, readyContentBytes: null, fetchWaitMs: 0, readyFetchWaitMs: null });
  });
});

test('the proxy counts nothing outside a window', async (t) => {
  await withProxy(async (proxy, agent) => {
    await get(proxy, agent, '/v2/img/blobs/sha256:len');
    proxy.begin('l1');
    const inside = proxy.end();
    t.deepEqual(inside, { contentBytes: 0, responseBytes: 0, readyContentBytes: null, fetchWaitMs: 0, readyFetchWaitMs: null });
    await get(proxy, agent, '/v2/img/blobs/sha256:chunked');
    proxy.begin('l2');
    await get(proxy, agent, '/v2/img/blobs/sha256:range', { headers: { Range: 'bytes=0-9' } });
    t.is(proxy.end().contentBytes, 10);
  });
});

test('responses to HEAD, 204, 404 and paths outside contentPath count as response bytes but not content', async (t) => {
  await withProxy(async (proxy, agent) => {
    proxy.begin('l1');
    const head = await get(proxy, agent, '/v2/img/blobs/sha256:len', { method: 'HEAD' });
    await get(proxy, agent, '/v2/img/blobs/sha256:none');
    await get(proxy, agent, '/v2/img/blobs/sha256:missing');
    await get(proxy, agent, '/v2/img/manifests/latest');
    // The keep-alive connection still frames the next response right after all of them.
    await get(proxy, agent, '/v2/img/blobs/sha256:range', { headers: { Range: 'bytes=5-9' } });
    const counts = proxy.end();
    t.is(head.res.headers['content-length'], String(blob.length));
    t.is(counts.contentBytes, 5);
    t.true(counts.responseBytes > 0);
  });
});

test('without a contentPath every 200 GET body counts as content', async (t) => {
  const proxy = await startCountingProxy({ upstreamHost: '127.0.0.1', upstreamPort: port });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    proxy.begin('l1');
    await get(proxy, agent, '/v2/img/manifests/latest');
    t.is(proxy.end().contentBytes, JSON.stringify({ schemaVersion: 2 }).length);
  } finally {
    agent.destroy();
    await proxy.close();
  }
});

test('response bytes are every byte the server sent, and a close-delimited body counts to the end', async (t) => {
  const body = Buffer.alloc(12_345, 1);
  const head = Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n', 'latin1');
  const raw: TcpServer = createTcpServer((s) => {
    s.once('data', () => {
      s.write(head);
      s.end(body);
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const proxy = await startCountingProxy({ upstreamHost: '127.0.0.1', upstreamPort: (raw.address() as AddressInfo).port });
  try {
    proxy.begin('l1');
    const received = await new Promise<number>((resolve, reject) => {
      const c = connect(proxy.port, proxy.host, () => c.write('GET /x HTTP/1.1\r\nHost: a\r\n\r\n'));
      let n = 0;
      c.on('data', (d: Buffer) => (n += d.length));
      c.on('end', () => resolve(n));
      c.on('error', reject);
    });
    const counts = proxy.end();
    t.is(received, head.length + body.length);
    t.like(counts, { contentBytes: body.length, responseBytes: head.length + body.length });
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  }
});

test('a non-loopback upstream is refused with a user error', async (t) => {
  for (const host of ['10.0.0.1', '192.0.2.1', 'example.com', '::ffff:8.8.8.8']) {
    const e = await t.throwsAsync(startCountingProxy({ upstreamHost: host, upstreamPort: 80 }));
    t.true(e instanceof UserError, host);
  }
});

test('the proxy listens on 127.0.0.1 only', async (t) => {
  await withProxy(async (proxy) => {
    t.is(proxy.host, '127.0.0.1');
    t.true(proxy.port > 0);
  });
});
