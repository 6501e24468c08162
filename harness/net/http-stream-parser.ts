// Pure, streaming HTTP/1.1 framing for the byte-counting proxy. One parser
// follows the client's requests on a connection (to learn each request's method
// and path, skipping request bodies); one follows the server's responses, in
// the same order, and reports how many payload bytes of counted responses
// (GET, status 200 or 206, path matching) each chunk of server bytes holds.
// Chunk-size lines, chunk CRLFs and trailers are framing, not content.
// Anything it cannot follow (not HTTP, CONNECT, Upgrade) makes the rest of the
// stream opaque: still forwarded and counted as response bytes, never as content.

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 4 * 1024;

export interface RequestInfo {
  method: string;
  path: string;
}

interface Head {
  startLine: string;
  headers: Map<string, string[]>;
}

type Body = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

type BodyState =
  | { at: 'length'; left: number }
  | { at: 'chunk-size'; line: string }
  | { at: 'chunk-data'; left: number }
  | { at: 'chunk-crlf'; left: number }
  | { at: 'trailer'; line: string }
  | { at: 'close' };

/** Framing state shared by both directions: head, then body, then the next head. */
abstract class MessageStream {
  /** Bytes of a head read so far (never starting with the blank lines allowed between messages). */
  private head: Buffer = Buffer.alloc(0);
  private body: BodyState | null = null;
  protected opaque = false;

  /** A message body is being read (a response still arriving, on the server's side). */
  get inBody(): boolean {
    return this.body !== null && !this.opaque;
  }

  /** Consumes bytes; returns the number of body payload bytes that counted. */
  push(chunk: Buffer): number {
    let counted = 0;
    let i = 0;
    while (i < chunk.length && !this.opaque) {
      if (this.body) {
        const r = this.consumeBody(chunk, i);
        if (this.counting()) counted += r.payload;
        i = r.next;
        continue;
      }
      const held = this.head.length;
      const joined = held ? Buffer.concat([this.head, chunk.subarray(i)]) : chunk.subarray(i);
      let s = 0;
      while (s < joined.length && (joined[s] === 0x0d || joined[s] === 0x0a)) s++;
      const end = blankLineEnd(joined, s);
      if (end < 0) {
        this.head = Buffer.from(joined.subarray(s));
        if (this.head.length > MAX_HEAD_BYTES) this.opaque = true;
        return counted;
      }
      this.head = Buffer.alloc(0);
      i += end - held;
      const head = parseHead(joined.toString('latin1', s, end));
      if (!head) {
        this.opaque = true;
        break;
      }
      const body = this.onHead(head);
      if (this.opaque) break;
      this.body = startBody(body);
    }
    return counted;
  }

  /** Did the last head start a message whose body counts as content? */
  protected abstract counting(): boolean;
  /** A complete head was read; decide its body. */
  protected abstract onHead(head: Head): Body;

  /** The rest of the stream cannot be followed: no body, and nothing after it is framed. */
  protected becomeOpaque(): Body {
    this.opaque = true;
    return { kind: 'none' };
  }

  /**
   * The body the headers frame: chunked, or a Content-Length; `unframed` when
   * they give neither. Content-Length values that disagree make the stream opaque.
   */
  protected framedBody(headers: Map<string, string[]>, unframed: Body): Body {
    if (isChunked(headers)) return { kind: 'chunked' };
    const len = contentLength(headers);
    if (len === 'bad') return this.becomeOpaque();
    return len === null ? unframed : { kind: 'length', left: len };
  }

  private consumeBody(chunk: Buffer, from: number): { next: number; payload: number } {
    const b = this.body!;
    switch (b.at) {
      case 'close':
        return { next: chunk.length, payload: chunk.length - from };
      case 'length': {
        const n = Math.min(b.left, chunk.length - from);
        b.left -= n;
        if (b.left === 0) this.body = null;
        return { next: from + n, payload: n };
      }
      case 'chunk-data': {
        const n = Math.min(b.left, chunk.length - from);
        b.left -= n;
        if (b.left === 0) this.body = { at: 'chunk-crlf', left: 2 };
        return { next: from + n, payload: n };
      }
      case 'chunk-crlf': {
        let i = from;
        // CRLF after chunk data (a bare LF is tolerated).
        while (i < chunk.length && b.left > 0) {
          const c = chunk[i]!;
          i++;
          if (c === 0x0a) {
            b.left = 0;
            break;
          }
          b.left--;
        }
        if (b.left === 0) this.body = { at: 'chunk-size', line: '' };
        return { next: i, payload: 0 };
      }
      case 'chunk-size':
      case 'trailer': {
        const nl = chunk.indexOf(0x0a, from);
        const end = nl < 0 ? chunk.length : nl;
        b.line += chunk.toString('latin1', from, end);
        if (b.line.length > MAX_LINE_BYTES) {
          this.opaque = true;
          return { next: chunk.length, payload: 0 };
        }
        if (nl < 0) return { next: chunk.length, payload: 0 };
        const line = b.line.replace(/\r$/, '');
        if (b.at === 'trailer') {
          this.body = line === '' ? null : { at: 'trailer', line: '' };
        } else {
          const size = /^[0-9a-fA-F]+/.exec(line.trim());
          if (!size) {
            this.opaque = true;
            return { next: chunk.length, payload: 0 };
          }
          const n = parseInt(size[0], 16);
          this.body = n === 0 ? { at: 'trailer', line: '' } : { at: 'chunk-data', left: n };
        }
        return { next: nl + 1, payload: 0 };
      }
    }
  }
}

/** Index just past the blank line (CRLF CRLF or LF LF) ending a head that starts at `from`, or -1. */
function blankLineEnd(buf: Buffer, from: number): number {
  for (let k = buf.indexOf(0x0a, from); k >= 0; k = buf.indexOf(0x0a, k + 1)) {
    if (k - 1 >= from && buf[k - 1] === 0x0a) return k + 1;
    if (k - 2 >= from && buf[k - 1] === 0x0d && buf[k - 2] === 0x0a) return k + 1;
  }
  return -1;
}

function startBody(body: Body): BodyState | null {
  switch (body.kind) {
    case 'none':
      return null;
    case 'length':
      return body.left > 0 ? { at: 'length', left: body.left } : null;
    case 'chunked':
      return { at: 'chunk-size', line: '' };
    case 'close':
      return { at: 'close' };
  }
}

function parseHead(text: string): Head | null {
  const lines = text.replace(/^[\r\n]+/, '').split(/\r?\n/);
  const startLine = lines.shift() ?? '';
  if (!startLine) return null;
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return { startLine, headers };
}

function isChunked(headers: Map<string, string[]>): boolean {
  const te = (headers.get('transfer-encoding') ?? [])
    .join(',')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return te.length > 0 && te[te.length - 1] === 'chunked';
}

function contentLength(headers: Map<string, string[]>): number | null | 'bad' {
  const values = headers.get('content-length');
  if (!values) return null;
  const all = values
    .join(',')
    .split(',')
    .map((s) => s.trim());
  if (!all.every((v) => /^\d+$/.test(v) && v === all[0])) return 'bad';
  return Number(all[0]);
}

/** Follows the client's side: requests in order. */
export class RequestStream extends MessageStream {
  /** Requests whose responses have not been read yet, oldest first. */
  readonly pending: RequestInfo[] = [];

  protected counting(): boolean {
    return false;
  }

  protected onHead(head: Head): Body {
    const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(head.startLine);
    if (!m) return this.becomeOpaque();
    const method = m[1]!;
    this.pending.push({ method, path: pathOf(m[2]!) });
    if (method === 'CONNECT' || head.headers.has('upgrade')) return this.becomeOpaque(); // what follows may be a tunnel
    return this.framedBody(head.headers, { kind: 'none' });
  }
}

/** Follows the server's side: responses in the order of the requests. */
export class ResponseStream extends MessageStream {
  private countCurrent = false;

  constructor(
    private readonly requests: RequestStream,
    private readonly contentPath: RegExp,
  ) {
    super();
  }

  protected counting(): boolean {
    return this.countCurrent;
  }

  protected onHead(head: Head): Body {
    this.countCurrent = false;
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(head.startLine);
    if (!m) return this.becomeOpaque();
    const status = Number(m[1]);
    if (status === 101) return this.becomeOpaque();
    if (status >= 100 && status < 200) return { kind: 'none' }; // informational: the real response follows
    const req = this.requests.pending.shift();
    if (req?.method === 'CONNECT' && status >= 200 && status < 300) return this.becomeOpaque();
    if (req?.method === 'HEAD' || status === 204 || status === 304) return { kind: 'none' };
    this.countCurrent = req !== undefined && req.method === 'GET' && (status === 200 || status === 206) && this.contentPath.test(req.path);
    return this.framedBody(head.headers, { kind: 'close' }); // no length: the response runs to the connection's close
  }
}

/** The path of a request target (origin form or absolute form), without the query. */
function pathOf(target: string): string {
  let t = target;
  const abs = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*(\/.*)?$/.exec(t);
  if (abs) t = abs[1] ?? '/';
  const q = t.indexOf('?');
  return q < 0 ? t : t.slice(0, q);
}

/** A copy without the g and y flags, whose `test` keeps no state between calls. */
export function statelessRegExp(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
}
