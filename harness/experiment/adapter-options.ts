// What the sample stage gives an arm adapter that starts its own launches
// (burst-startup's bursts, restore-sweep's checkpoints and restores): the
// launch helper, the run's timing rules, and its ways to stop and to log.
import type { SettleSection } from '../config/pipeline-config.js';
import type { Launcher } from '../launch/launcher.js';

export interface LaunchingAdapterOptions {
  /** The pinned image tar (a root file system) the launches start from. */
  rootfsTar: string;
  launcher: Launcher;
  experiment: string;
  settle: SettleSection;
  timeoutMs: number;
  signal: AbortSignal;
  log: (line: string) => void;
}
