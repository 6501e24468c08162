import test from 'ava';
import { RequestStream, ResponseStream } from '../harness/net/http-stream-parser.js';

function feed(requests: string, responses: string, pieceBytes: number, path = /(?:)/): number {
  const req = new RequestStream();
  const res = new ResponseStream(req, path);
  const rq = Buffer.from(requests, 'latin1');
  for (let i = 0; i < rq.length; i += pieceBytes) req.push(rq.subarray(i, i + pieceBytes));
  const rs = Buffer.from(responses, 'latin1');
  let counted = 0;
  for (let i = 0; i < rs.length; i += pieceBytes) counted += res.push(rs.subarray(i, i + pieceBytes));
  return counted;
}

const requests =
  'GET /a HTTP/1.1\r\nHost: x\r\n\r\n' +
  'POST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello' +
  'HEAD /c HTTP/1.1\r\n\r\n' +
  'GET /d HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n' +
  'GET /e HTTP/1.1\r\n\r\n' +
  'GET /f HTTP/1.1\r\n\r\n';
const responses =
  'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd' + // /a: 4
  'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nxyz' + // POST: not counted
  'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n' + // HEAD: no body
  'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 206 Partial Content\r\nTransfer-Encoding: chunked\r\n\r\n' +
  'a;ext=1\r\n0123456789\r\n2\r\nxy\r\n0\r\nTrailer: v\r\n\r\n' + // /d: 12
  'HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n' + // /e: no body
  'HTTP/1.1 200 OK\r\n\r\nuntil-close'; // /f: 11, delimited by close

test('a keep-alive sequence of requests and responses counts the payload of GET 200/206 bodies only, fed whole', (t) => {
  t.is(feed(requests, responses, 1 << 20), 4 + 12 + 11);
});

test('the same sequence counts the same when fed one byte at a time', (t) => {
  t.is(feed(requests, responses, 1), 4 + 12 + 11);
});

test('only requests whose path matches contentPath count', (t) => {
  t.is(feed(requests, responses, 7, /^\/d$/), 12);
});

test('a stream that is not HTTP is forwarded as opaque and counts no content', (t) => {
  t.is(feed('\x16\x03\x01 tls hello', '\x16\x03\x03 server hello and more bytes', 3), 0);
});
