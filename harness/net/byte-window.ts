// One launch's byte window (counting-proxy.ts), in milliseconds since it
// opened: the image bytes as they arrived, and the spans during which the
// launch waited on the server, i.e. at least one request was outstanding
// (read by the proxy, its response not yet through). Pure: the proxy passes
// the clock. Cut at Ready, it says how much of a launch's reading happened
// before it was ready.

/** A window's counts: its totals, and their part up to Ready. */
export interface ByteCounts {
  contentBytes: number;
  responseBytes: number;
  /** Content bytes that had arrived by Ready (timed from the window's opening, just before spawn); null without Ready. */
  readyContentBytes: number | null;
  /** Time with at least one request outstanding, ms. */
  fetchWaitMs: number;
  /** The same up to Ready; null without Ready. */
  readyFetchWaitMs: number | null;
}

export class ByteWindow {
  contentBytes = 0;
  responseBytes = 0;
  /** [ms, content bytes] per arrival, flat. */
  private readonly arrivals: number[] = [];
  /** [from ms, to ms] per span with a request outstanding, flat. */
  private readonly waits: number[] = [];
  private waitingSince: number | null = null;

  constructor(
    readonly launchId: string,
    private readonly openedAtMs: number,
    waiting: boolean,
  ) {
    if (waiting) this.waitingSince = 0;
  }

  received(atMs: number, responseBytes: number, contentBytes: number): void {
    this.responseBytes += responseBytes;
    if (contentBytes === 0) return;
    this.contentBytes += contentBytes;
    this.arrivals.push(atMs - this.openedAtMs, contentBytes);
  }

  /** Whether any request is outstanding from `atMs` on. */
  waiting(atMs: number, waiting: boolean): void {
    const t = atMs - this.openedAtMs;
    if (waiting && this.waitingSince === null) this.waitingSince = t;
    if (!waiting && this.waitingSince !== null) {
      this.waits.push(this.waitingSince, t);
      this.waitingSince = null;
    }
  }

  /** The window's totals at `closedAtMs`, and the part of them up to `readyMs` after it opened (null: not ready). */
  totals(closedAtMs: number, readyMs: number | null): ByteCounts {
    this.waiting(closedAtMs, false);
    const cut = readyMs ?? -Infinity;
    let byReady = 0;
    for (let i = 0; i < this.arrivals.length; i += 2) if (this.arrivals[i]! <= cut) byReady += this.arrivals[i + 1]!;
    let waitMs = 0;
    let waitByReady = 0;
    for (let i = 0; i < this.waits.length; i += 2) {
      const from = this.waits[i]!;
      const to = this.waits[i + 1]!;
      waitMs += to - from;
      waitByReady += Math.max(0, Math.min(to, cut) - from);
    }
    return {
      contentBytes: this.contentBytes,
      responseBytes: this.responseBytes,
      readyContentBytes: readyMs === null ? null : byReady,
      fetchWaitMs: waitMs,
      readyFetchWaitMs: readyMs === null ? null : waitByReady,
    };
  }
}
