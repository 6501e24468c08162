// Pure: checks a launch request and encodes it for the C helper:
// "<payload bytes>\n" + NUL-terminated fields
//   launchId, cwd, marker, timeoutMs, tailBytes, argc, argv..., envc, env ("K=V")...
// An empty marker field means no marker is matched (ready 'first-line' or 'none').
// None of these strings may contain NUL, so the framing needs no escaping.

import type { LaunchRequest } from './launch-types.js';

const LAUNCH_ID = /^[A-Za-z0-9._-]+$/;
const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/** Returns what is wrong with a request, or null. */
export function requestProblem(req: LaunchRequest): string | null {
  if (!LAUNCH_ID.test(req.launchId)) return `launchId ${JSON.stringify(req.launchId)} must be letters, digits, '.', '_' or '-'`;
  if (req.argv.length === 0 || req.argv[0] === '') return 'argv must name a program';
  const mode = req.ready ?? 'marker';
  if (!['marker', 'first-line', 'none'].includes(mode)) return `ready must be marker, first-line or none (got ${JSON.stringify(mode)})`;
  if (mode === 'marker' && (req.marker === '' || /[\r\n]/.test(req.marker))) return 'marker must be one non-empty line';
  if (!Number.isFinite(req.timeoutMs) || req.timeoutMs < 1) return `timeoutMs must be at least 1 (got ${req.timeoutMs})`;
  if (!Number.isInteger(req.tailBytes) || req.tailBytes < 0 || req.tailBytes > MAX_TAIL_BYTES) {
    return `tailBytes must be an integer from 0 to ${MAX_TAIL_BYTES}`;
  }
  if (req.cwd === '') return 'cwd must be a folder';
  const strings = [req.launchId, req.cwd, req.marker, ...req.argv];
  if (strings.some((s) => s.includes('\0'))) return 'argv, env, cwd and marker may not contain NUL';
  return envOf(req.env).problem;
}

interface EnvFrame {
  problem: string | null;
  /** "envc\0K=V\0..." as it ends a frame. */
  fields: string;
}

// A measurement sends the same environment object with every launch; checking and
// encoding it once per object instead of once per launch takes about 10 µs of Node
// work off each launch (bench/measure-vs-hyperfine.ts). Callers do not mutate it.
const envFrames = new WeakMap<Record<string, string>, EnvFrame>();

function envOf(env: Record<string, string>): EnvFrame {
  let frame = envFrames.get(env);
  if (!frame) {
    const entries = Object.entries(env);
    const problem = entries.some(([k, v]) => k.includes('\0') || v.includes('\0'))
      ? 'argv, env, cwd and marker may not contain NUL'
      : entries.some(([k]) => k === '' || k.includes('='))
        ? "env names must be non-empty and without '='"
        : null;
    frame = { problem, fields: [String(entries.length), ...entries.map(([k, v]) => `${k}=${v}`)].map((f) => f + '\0').join('') };
    envFrames.set(env, frame);
  }
  return frame;
}

export function encodeRequest(req: LaunchRequest): Buffer {
  const fields = [
    req.launchId,
    req.cwd,
    (req.ready ?? 'marker') === 'marker' ? req.marker : '',
    String(Math.ceil(req.timeoutMs)),
    String(req.tailBytes),
    String(req.argv.length),
    ...req.argv,
  ];
  const payload = Buffer.from(fields.map((f) => f + '\0').join('') + envOf(req.env).fields, 'utf8');
  return Buffer.concat([Buffer.from(`${payload.length}\n`, 'ascii'), payload]);
}
