// The config a running stage sees: only what it declares in `reads` (the
// sections and dotted keys its key hashes), plus the pipeline file's path, the
// stage list and the executor, which are never part of a key. Reading any
// other key is a bug in the stage (its key would not change when that key
// does), so it throws at once, naming the key and the remedy.
import type { PipelineConfig } from '../config/pipeline-config.js';

const ALWAYS = new Set(['file', 'stages', 'executor']);

export function declaredConfig(config: PipelineConfig, kind: string, reads: readonly string[]): PipelineConfig {
  const view = (target: unknown, path: string): unknown => {
    if (!target || typeof target !== 'object' || Array.isArray(target)) return target;
    if (path !== '' && reads.includes(path)) return target; // the whole section or key is declared
    const keyOf = (prop: string): string => (path ? `${path}.${prop}` : prop);
    const whole = (prop: string): boolean => (path === '' && ALWAYS.has(prop)) || reads.includes(keyOf(prop));
    const partly = (prop: string): boolean => reads.some((r) => r.startsWith(`${keyOf(prop)}.`));
    return new Proxy(target as Record<string, unknown>, {
      // JSON.stringify and Object.keys see the declared keys only (a Slurm job spec carries what the stage reads).
      ownKeys: (t) => Reflect.ownKeys(t).filter((k) => typeof k === 'string' && (whole(k) || partly(k))),
      getOwnPropertyDescriptor: (t, prop) =>
        typeof prop === 'string' && !whole(prop) && !partly(prop) ? undefined : Reflect.getOwnPropertyDescriptor(t, prop),
      get(t, prop, receiver) {
        if (typeof prop === 'symbol' || (prop === 'toJSON' && !(prop in t))) return Reflect.get(t, prop, receiver);
        const key = keyOf(prop);
        if (whole(prop)) return Reflect.get(t, prop, receiver);
        if (partly(prop)) return view(Reflect.get(t, prop, receiver), key);
        throw new Error(
          `bug: stage kind ${kind} reads config key '${key}' but does not declare it in its reads (add it to reads in stages/${kind}.ts, so its key changes when the key does)`,
        );
      },
    });
  };
  return view(config, '') as PipelineConfig;
}
