// What starting a service gives the engine (see docs/CONTRACTS.md).
import type { ServiceSection } from '../config/pipeline-config.js';

export interface StartedService {
  endpoint: { url?: string; address?: string; socket?: string; values: Record<string, string> };
  /** Where a byte-counting proxy should forward to. */
  upstream?: { host: string; port: number };
  /** Stops every process of the service and waits until they are gone and their sockets closed. */
  stop(): Promise<void>;
  /** Request paths whose response bodies are content bytes, when the service's config decides (kind command); else the kind's rule. */
  contentPath?: RegExp;
  /** Its main process, watched for an unplanned death during a session (service-fault-policy.ts). */
  process?: { pid: number; exited: Promise<string> };
}

/** Starts one kind of service from its prepared data folder (if any) in its own run folder. */
export type ServiceStarter = (
  id: string,
  section: ServiceSection,
  preparedDir: string | undefined,
  runDir: string,
  log: (line: string) => void,
) => Promise<StartedService>;
