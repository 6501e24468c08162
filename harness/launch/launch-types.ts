// The data a measured launch takes and gives back (see launcher.ts).

export interface LaunchRequest {
  /** Unique id of the launch; also inside its marker. Letters, digits, '.', '_', '-'. */
  launchId: string;
  /** Program and arguments, spawned directly (no shell); argv[0] is looked up in env.PATH. */
  argv: string[];
  /** The complete environment of the launched process (nothing is inherited implicitly). Not mutated after it is passed: its encoding is cached per object. */
  env: Record<string, string>;
  /** Working directory of the launched process (must exist). */
  cwd: string;
  /** Ready is the moment a complete stdout line equal to this text is read (ready 'marker'). */
  marker: string;
  /**
   * What Ready is: 'marker' (default) the marker line, and a launch without it
   * fails; 'first-line' the first complete stdout line; 'none' not measured
   * (Completion only, the marker is ignored).
   */
  ready?: ReadyMode;
  /** The whole process group is killed this long after spawn. */
  timeoutMs: number;
  /** How many trailing bytes of stdout and of stderr to keep. */
  tailBytes: number;
}

export type LaunchState = 'ok' | 'failed' | 'timeout';

export type ReadyMode = 'marker' | 'first-line' | 'none';

/** What a launch measured, as the helper reports it and the client passes it on. */
export interface LaunchMeasures {
  launchId: string;
  /** Spawn to the complete marker line (or first line) read from stdout; null if never seen or not measured. */
  readyMs: number | null;
  /** Spawn to exit with stdout and stderr closed; null on timeout or spawn failure. */
  completionMs: number | null;
  exitCode: number | null;
  signal: string | null;
  /** CPU of the child and the descendants it waited for. */
  userCpuMs: number | null;
  sysCpuMs: number | null;
  /** Max RSS of the largest process among the child and its waited-for descendants. */
  maxRssKb: number | null;
  markerSeen: boolean;
  stdoutTail: string;
  stderrTail: string;
}

export interface LaunchResult extends LaunchMeasures {
  /** ok: exited and the marker was seen; timeout: killed by the timeout; failed: anything else. */
  state: LaunchState;
  failureReason: string | null;
  /** Phase marks the launch printed on stderr (`BENCHGRAPH-PHASE NAME`), each timed from spawn like Ready. */
  phases: PhaseMark[];
}

export interface PhaseMark {
  name: string;
  /** Spawn to the moment the mark's line was read, ms. */
  ms: number;
}

/** One result line of the C helper: raw facts, no judgement. */
export interface HelperResult extends LaunchMeasures {
  spawnError: string | null;
  timedOut: boolean;
  /** Spawn to the first complete stdout line (or EOF after a partial one); null if none. */
  firstLineMs: number | null;
  /** Helper idle time before this request: from writing the previous result to reading this request. */
  idleMs: number | null;
  /** Processes of the launch's group still alive after completion were killed. */
  strayKilled: boolean;
  /** After a timeout kill, a pipe stayed open (held outside the group) and was closed by the helper. */
  pipesForcedClosed: boolean;
  /** Phase marks read on stderr, in order (at most 16). */
  phases: PhaseMark[];
  /** In a burst (Launcher.burst): its size, this launch's index, its release after the burst's first (ms; 0 in a closed loop), and its release to its spawn (ms; null when it never got that far). */
  burst?: number;
  burstIndex?: number;
  releaseOffsetMs?: number;
  spawnOffsetMs?: number | null;
}
