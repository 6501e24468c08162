// The service kinds the engine can start (see docs/CONTRACTS.md): each starts
// its processes on 127.0.0.1 only (or a unix socket), registers them with
// onCleanup, and stops them by their own pid.
import type { ServiceSection } from '../config/pipeline-config.js';
import { UserError } from '../errors.js';
import { startDockerEngine } from './docker-engine-service.js';
import { startDockerRegistry } from './docker-registry-service.js';
import { startNginxFiles } from './nginx-files-service.js';
import type { StartedService } from './started-service.js';

export type { StartedService } from './started-service.js';

type Starter = (id: string, section: ServiceSection, preparedDir: string | undefined, runDir: string, log: (l: string) => void) => Promise<StartedService>;

export const SERVICE_KINDS: Record<string, Starter> = {
  'docker-registry': startDockerRegistry,
  'nginx-files': startNginxFiles,
  'docker-engine': startDockerEngine,
};

export function startService(
  id: string,
  section: ServiceSection,
  preparedDir: string | undefined,
  runDir: string,
  log: (l: string) => void,
): Promise<StartedService> {
  const start = SERVICE_KINDS[section.kind];
  if (!start) {
    throw new UserError(`unknown service kind '${section.kind}'`, { key: `services.${id}.kind` }, `use one of: ${Object.keys(SERVICE_KINDS).join(', ')}`);
  }
  return start(id, section, preparedDir, runDir, log);
}
