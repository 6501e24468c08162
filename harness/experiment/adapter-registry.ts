// Which arm adapter a stage kind samples with, so a session can be rebuilt
// where it runs: a stage module registers its adapter's factory when it loads,
// and a Slurm job (`pipeline session-job SPEC`) loads the stage's module by
// its kind, then builds the same adapter from the stage's context on its node.
import type { StageContext } from '../contract/stage.js';
import type { ExperimentAdapter } from './sample-experiment.js';

/** An adapter and what it holds open (a launcher, a plan) until the sampling ends. */
export interface OpenedAdapter {
  adapter: ExperimentAdapter;
  close(): Promise<void>;
}

/** Builds the adapter of a stage from its context (config slice, params, inputs, folders). */
export type AdapterFactory = (ctx: StageContext) => Promise<OpenedAdapter>;

const factories = new Map<string, AdapterFactory>();

export function registerAdapterFactory(stageKind: string, factory: AdapterFactory): AdapterFactory {
  factories.set(stageKind, factory);
  return factory;
}

/** The registered factory of a stage kind, or null when that stage does not sample on the experiment model. */
export function adapterFactoryOf(stageKind: string): AdapterFactory | null {
  return factories.get(stageKind) ?? null;
}

/** Runs `body` with the stage's adapter open, and closes it after, on error too. */
export async function withAdapter<T>(factory: AdapterFactory, ctx: StageContext, body: (adapter: ExperimentAdapter) => Promise<T>): Promise<T> {
  const opened = await factory(ctx);
  try {
    return await body(opened.adapter);
  } finally {
    await opened.close();
  }
}
