// Starts the pipeline's services from their prepared data for the stages that
// need them, each service with `count_bytes` behind a byte-counting proxy on
// 127.0.0.1, and stops them all afterwards (also on error and signal). A
// counted service also offers its uncounted upstream as the values
// direct_address and direct_url, for the paths that measure the proxy's cost.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineConfig, ServiceSection } from '../config/pipeline-config.js';
import { noServices, type ByteCounter, type ByteCounts, type RunningServices, type ServiceDeath, type ServiceEndpoint } from '../contract/running-services.js';
import type { CountingProxy } from '../net/counting-proxy.js';
import { onCleanup } from '../process/cleanup.js';
import { UserError } from '../errors.js';

export interface ServiceSession {
  services: RunningServices;
  stop(): Promise<void>;
}

export async function startServiceSession(
  config: PipelineConfig,
  preparedDirOf: (stageId: string) => string | null,
  runDir: string,
  log: (line: string) => void,
): Promise<ServiceSession> {
  if (Object.keys(config.services).length === 0) return { services: noServices, stop: async () => {} };
  // Loaded on demand: a pipeline without services never loads these adapters.
  const { serviceKind } = await import('./service-kinds.js');
  const { startCountingProxy } = await import('../net/counting-proxy.js');
  const stops: (() => Promise<void>)[] = [];
  const byId: Record<string, ServiceEndpoint> = {};
  const proxies: CountingProxy[] = [];
  const deaths: ServiceDeath[] = []; // service-fault-policy.ts decides what they mean
  let stopping = false;
  // Every service is stopped even when one stop fails; the failures are reported together.
  const stopAll = async (): Promise<void> => {
    stopping = true;
    const failures: string[] = [];
    while (stops.length) {
      try {
        await stops.pop()!();
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    if (failures.length) throw new Error(`stopping services: ${failures.join('; ')}`);
  };
  try {
    for (const [id, section] of Object.entries(config.services) as [string, ServiceSection][]) {
      let prepared: string | undefined;
      if (section.data_from) {
        const dir = preparedDirOf(section.data_from);
        if (!dir)
          throw new UserError(
            `service ${id} needs the outputs of stage '${section.data_from}', which is not frozen`,
            { key: `services.${id}.data_from` },
            'run that stage first',
          );
        prepared = join(dir, 'services', id);
      }
      const serviceRun = join(runDir, id);
      mkdirSync(serviceRun, { recursive: true });
      log(`starting service ${id} (${section.kind})`);
      const kind = serviceKind(id, section);
      const started = await kind.start(id, section, prepared, serviceRun, log);
      stops.push(() => started.stop());
      const proc = started.process;
      if (proc) void proc.exited.then((how) => void (stopping || deaths.push({ id, kind: section.kind, pid: proc.pid, how })));
      const endpoint: ServiceEndpoint = { id, kind: section.kind, ...started.endpoint, values: { ...started.endpoint.values } };
      if (section.count_bytes) {
        if (!started.upstream) throw new Error(`service kind ${section.kind} offers no TCP upstream to count bytes on`);
        const proxy = await startCountingProxy({
          upstreamHost: started.upstream.host,
          upstreamPort: started.upstream.port,
          contentPath: started.contentPath ?? kind.contentPath ?? /(?!)/, // a kind without image data counts no content
        });
        proxies.push(proxy);
        stops.push(() => proxy.close());
        // The service itself, not counted: for instrument-cost paths that measure what the proxy costs.
        endpoint.values['direct_address'] = `${started.upstream.host}:${started.upstream.port}`;
        endpoint.values['direct_url'] = `http://${started.upstream.host}:${started.upstream.port}`;
        endpoint.address = `${proxy.host}:${proxy.port}`;
        endpoint.url = `http://${proxy.host}:${proxy.port}`;
      }
      for (const [k, v] of Object.entries({ url: endpoint.url, address: endpoint.address, socket: endpoint.socket })) {
        if (v !== undefined) endpoint.values[k] = v;
      }
      byId[id] = endpoint;
    }
  } catch (e) {
    await stopAll();
    throw e;
  }
  const undo = onCleanup('services', stopAll);
  const counter: ByteCounter | null = proxies.length
    ? {
        begin: (launchId) => proxies.forEach((p) => p.begin(launchId)),
        end: (readyMs = null): ByteCounts => {
          const total: ByteCounts = {
            contentBytes: 0,
            responseBytes: 0,
            readyContentBytes: readyMs === null ? null : 0,
            fetchWaitMs: 0,
            readyFetchWaitMs: readyMs === null ? null : 0,
          };
          for (const p of proxies) {
            const c = p.end(readyMs);
            total.contentBytes += c.contentBytes;
            total.responseBytes += c.responseBytes;
            total.fetchWaitMs += c.fetchWaitMs;
            if (total.readyContentBytes !== null) total.readyContentBytes += c.readyContentBytes ?? 0;
            if (total.readyFetchWaitMs !== null) total.readyFetchWaitMs += c.readyFetchWaitMs ?? 0;
          }
          return total;
        },
      }
    : null;
  return { services: { byId, counter, deaths: () => deaths }, stop: undo };
}
