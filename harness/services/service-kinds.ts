// The service kinds the engine can start (see docs/CONTRACTS.md): each starts
// its processes on 127.0.0.1 only (or a unix socket), registers them with
// onCleanup, and stops them by their own pid.
import { UserError } from '../errors.js';
import { startDockerEngine } from './docker-engine-service.js';
import { startDockerRegistry } from './docker-registry-service.js';
import { startNginxFiles } from './nginx-files-service.js';
import type { ServiceStarter } from './started-service.js';

export type { ServiceStarter, StartedService } from './started-service.js';

export const SERVICE_KINDS: Record<string, ServiceStarter> = {
  'docker-registry': startDockerRegistry,
  'nginx-files': startNginxFiles,
  'docker-engine': startDockerEngine,
};

export const startService: ServiceStarter = async (id, section, preparedDir, runDir, log) => {
  const start = SERVICE_KINDS[section.kind];
  if (!start) {
    throw new UserError(`unknown service kind '${section.kind}'`, { key: `services.${id}.kind` }, `use one of: ${Object.keys(SERVICE_KINDS).join(', ')}`);
  }
  return start(id, section, preparedDir, runDir, log);
};
