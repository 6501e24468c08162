// Pure: the values command templates may use for one launch (see
// docs/CONTRACTS.md), and the environment of the launch and its hooks.
import type { CohortSection, PathSection } from '../config/pipeline-config.js';
import type { RunningServices } from '../contract/running-services.js';
import { flattenValues, type TemplateValues } from '../experiment/command-template.js';

export interface LaunchPlace {
  launchId: string;
  marker: string;
  workspace: string;
  pairDir: string;
  sessionDir: string;
  state: 'cold' | 'warm';
  cohort: string;
  path: string;
  round: number;
}

export interface SessionValues {
  harnessDir: string;
  dataDir: string;
  /** image id -> fields (pins merged with prepared data) */
  images: Record<string, Record<string, unknown>>;
  services: RunningServices;
}

export function launchValues(place: LaunchPlace, cohort: CohortSection, session: SessionValues): TemplateValues {
  const values: TemplateValues = {
    marker: place.marker,
    launch_id: place.launchId,
    workspace: place.workspace,
    pair_dir: place.pairDir,
    session_dir: place.sessionDir,
    state: place.state,
    cohort: place.cohort,
    path: place.path,
    round: String(place.round),
    harness: session.harnessDir,
    data: session.dataDir,
  };
  if (cohort.image) flattenValues('image', { id: cohort.image, ...(session.images[cohort.image] ?? {}) }, values);
  for (const [id, svc] of Object.entries(session.services.byId)) {
    flattenValues(`services.${id}`, { ...svc.values, url: svc.url, address: svc.address, socket: svc.socket }, values);
  }
  return values;
}

export function launchEnv(
  base: NodeJS.ProcessEnv,
  cohort: CohortSection,
  path: PathSection,
  place: LaunchPlace,
  expand: (s: string) => string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  for (const [k, v] of Object.entries(cohort.env)) env[k] = expand(v);
  for (const [k, v] of Object.entries(path.env)) env[k] = expand(v);
  env['BENCHGRAPH_MARKER'] = place.marker;
  env['BENCHGRAPH_LAUNCH_ID'] = place.launchId;
  env['BENCHGRAPH_WORKSPACE'] = place.workspace;
  env['BENCHGRAPH_PAIR_DIR'] = place.pairDir;
  env['BENCHGRAPH_SESSION_DIR'] = place.sessionDir;
  env['BENCHGRAPH_STATE'] = place.state;
  return env;
}
