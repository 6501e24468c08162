// Service kind `command`: the user's own daemon (a cache server, a sandbox
// manager, containerd with a lazy snapshotter), started from an argv template
// with {port} (a free port on 127.0.0.1), {dir} (its data folder: the frozen
// prepared data with data_from, else a fresh folder) and {socket} (a unix
// socket path in its run folder) in its own process group; ready when its
// probe holds (TCP connect, HTTP GET on loopback, a file or a socket
// appearing, a command exiting 0) within timeout_s, else an error quoting its
// log tail; refused when it listens on any address beyond loopback; stopped
// by its pid and then its process group. With data_from its prepare command
// fills {dir} once in the prepare stage.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../errors.js';
import { runUntimed } from '../process/untimed-command.js';
import { freeLoopbackPort } from './free-port.js';
import { isLoopbackAddress, listeningSocketsOfGroup } from './listening-sockets.js';
import { canConnect, canConnectUnix, logTail, startProcess, waitPortClosed, type ServiceProcess } from './service-process.js';
import { timedSeconds, type ServiceKind } from './service-kind.js';
import type { ServiceStarter, StartedService } from './started-service.js';
import type { ServiceSection } from '../config/pipeline-config.js';

interface ReadySpec {
  tcp?: boolean;
  http?: string;
  file?: string;
  socket?: string;
  command?: string[];
  timeout_s?: number;
}

/** Pure: an argv template with {name} replaced; an unknown placeholder is a user error naming the key. */
export function expandServiceArgv(template: readonly string[], values: Record<string, string>, key: string): string[] {
  return template.map((arg) =>
    arg.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
      if (name in values) return values[name]!;
      throw new UserError(
        `unknown placeholder ${whole}`,
        { key },
        `a command service's templates know: ${Object.keys(values)
          .map((k) => `{${k}}`)
          .join(', ')}`,
      );
    }),
  );
}

/** Pure: the probe to use, named for messages. */
export function probeOf(ready: ReadySpec, usesPort: boolean): { name: string; spec: ReadySpec } {
  for (const name of ['http', 'file', 'socket', 'command'] as const) if (ready[name] !== undefined) return { name, spec: ready };
  return { name: usesPort ? 'tcp' : 'none', spec: ready };
}

/** One probe: whether it held, and for an HTTP probe what the last attempt got (the status, or why there was none). */
interface ProbeAnswer {
  held: boolean;
  answer?: string;
}

async function probeOnce(name: string, ready: ReadySpec, port: number, values: Record<string, string>, key: string): Promise<ProbeAnswer> {
  if (name === 'http') {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${ready.http}`, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return { held: res.status >= 200 && res.status < 400, answer: `HTTP ${res.status}` };
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      return { held: false, answer: cause === 'ECONNREFUSED' ? 'connection refused' : `no answer (${cause ?? (e as Error).name})` };
    }
  }
  return { held: await probeHolds(name, ready, port, values, key) };
}

async function probeHolds(name: string, ready: ReadySpec, port: number, values: Record<string, string>, key: string): Promise<boolean> {
  switch (name) {
    case 'tcp':
      return canConnect('127.0.0.1', port);
    case 'file':
      return existsSync(expandServiceArgv([ready.file!], values, `${key}.file`)[0]!);
    case 'socket':
      return canConnectUnix(expandServiceArgv([ready.socket!], values, `${key}.socket`)[0]!);
    case 'command': {
      const [cmd, ...args] = expandServiceArgv(ready.command!, values, `${key}.command`);
      try {
        await runUntimed(cmd!, args);
        return true;
      } catch {
        return false;
      }
    }
    default:
      return true;
  }
}

async function waitReady(id: string, proc: ServiceProcess, logFile: string, probe: () => Promise<ProbeAnswer>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const key = `services.${id}.with.ready`;
  let last: ProbeAnswer = { held: false };
  for (;;) {
    last = await probe();
    if (last.held) return;
    if (proc.hasExited()) {
      const how = await proc.exited;
      throw new UserError(
        `service ${id} exited (${how}) before ${what} held; its log ends: ${logTail(logFile, 600)}`,
        { key: `services.${id}.with.command` },
        `run the command by hand to see why; log: ${logFile}`,
      );
    }
    if (Date.now() > deadline) {
      await proc.stop(2_000);
      throw new UserError(
        `service ${id}: ${what} did not hold within ${timeoutMs / 1000} s${last.answer ? ` (last answer: ${last.answer})` : ''}; its log ends: ${logTail(logFile, 600)}`,
        { key },
        'raise ready.timeout_s, or check the probe and the daemon',
      );
    }
    await sleep(20);
  }
}

export const startCommandService: ServiceStarter = async (id, section, preparedDir, runDir, log) => {
  const w = section.with as { command: string[]; ready?: ReadySpec; content_path?: string };
  const run = resolve(runDir);
  const dir = resolve(preparedDir ?? join(run, 'data'));
  if (preparedDir && !existsSync(preparedDir))
    throw new UserError(`prepared data of service ${id} is missing: ${preparedDir}`, { key: `services.${id}.data_from` }, 'run the prepare stage again');
  mkdirSync(dir, { recursive: true });
  const usesPort = w.command.some((a) => a.includes('{port}'));
  const port = usesPort ? await freeLoopbackPort() : 0;
  // A unix socket path is limited to 107 bytes: a deep run folder gets a short one under the temp folder.
  const shortDir = join(run, 'service.sock').length > 100 ? mkdtempSync(join(tmpdir(), 'bg-sock-')) : null;
  const socket = join(shortDir ?? run, 'service.sock');
  const values: Record<string, string> = { port: String(port), dir, socket, run };
  const argv = expandServiceArgv(w.command, values, `services.${id}.with.command`);
  const logFile = join(run, 'service.log');
  const proc = startProcess(`service ${id}`, argv[0]!, argv.slice(1), logFile, run);
  const ready = w.ready ?? {};
  const probe = probeOf(ready, usesPort);
  const what =
    probe.name === 'http' ? `GET http://127.0.0.1:${port}${ready.http}` : probe.name === 'tcp' ? `a TCP connect to 127.0.0.1:${port}` : `ready.${probe.name}`;
  try {
    await waitReady(id, proc, logFile, () => probeOnce(probe.name, ready, port, values, `services.${id}.with.ready`), what, (ready.timeout_s ?? 30) * 1000);
    const beyond = listeningSocketsOfGroup(proc.pid).filter((s) => !isLoopbackAddress(s.address));
    if (beyond.length)
      throw new UserError(
        `service ${id} listens beyond loopback on ${beyond.map((s) => `${s.address.includes(':') ? `[${s.address}]` : s.address}:${s.port}`).join(', ')}; refused`,
        { key: `services.${id}.with.command` },
        'make the daemon bind 127.0.0.1 or [::1] (e.g. --bind 127.0.0.1), or use a unix socket',
      );
  } catch (e) {
    await proc.stop(2_000);
    if (shortDir) rmSync(shortDir, { recursive: true, force: true });
    throw e;
  }
  log(
    `service ${id}: ${argv[0]} (pid ${proc.pid})${usesPort ? ` on 127.0.0.1:${port}` : ''}, ready by ${probe.name}, data ${relative(process.cwd(), dir) || dir}`,
  );
  const address = `127.0.0.1:${port}`;
  const started: StartedService = {
    endpoint: usesPort ? { url: `http://${address}`, address, socket, values: { ...values } } : { socket, values: { ...values } },
    ...(usesPort ? { upstream: { host: '127.0.0.1', port } } : {}),
    ...(w.content_path ? { contentPath: new RegExp(w.content_path) } : {}),
    process: proc,
    stop: async () => {
      await proc.stop(5_000);
      if (usesPort) await waitPortClosed('127.0.0.1', port);
      if (shortDir) rmSync(shortDir, { recursive: true, force: true });
    },
  };
  return started;
};

export const commandKind: ServiceKind = {
  kind: 'command',
  start: startCommandService,
  // What is content is the pipeline's to say (with.content_path); by default only response bytes count.
  contentPath: null,
  async prepare(ctx) {
    const section: ServiceSection = ctx.section;
    const template = section.with['prepare'] as string[];
    mkdirSync(ctx.target, { recursive: true });
    const values = { dir: resolve(ctx.target), pins: resolve(ctx.pinDir), run: resolve(ctx.runDir) };
    const [cmd, ...args] = expandServiceArgv(template, values, `services.${ctx.serviceId}.with.prepare`);
    let out = '';
    const seconds = await timedSeconds(async () => {
      try {
        out = await runUntimed(cmd!, args, { cwd: ctx.pipelineDir, signal: ctx.signal });
      } catch (e) {
        throw new UserError(
          `the prepare command of service ${ctx.serviceId} failed: ${(e as Error).message}`,
          { key: `services.${ctx.serviceId}.with.prepare` },
          'run it by hand with {dir} set to an empty folder',
        );
      }
    });
    for (const line of out.trim().split('\n').filter(Boolean).slice(-5)) ctx.log(`prepare: ${ctx.serviceId}: ${line}`);
    ctx.log(`prepare: ${ctx.serviceId}: prepare command done in ${seconds.toFixed(3)} s`);
    return { preparations: [{ service: ctx.serviceId, artifact: '(service data)', operation: `prepare command (${cmd})`, seconds }], images: {} };
  },
};
