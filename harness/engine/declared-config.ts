// The config a running stage sees: only what it declares in `reads` (the
// sections and dotted keys its key hashes), plus the pipeline file's path, the
// stage list and the executor, which are never part of a key. Reading any
// other key is a bug in the stage (its key would not change when that key
// does), so it throws at once, naming the key and the remedy.
//
// The typed sections (`rules`, `reportOptions`, typed once at load) are seen
// field by field: a field is there when the key it is read from
// (analysisRuleKeys, reportOptionKeys) is declared, whole.
import type { PipelineConfig } from '../config/pipeline-config.js';
import { analysisRuleKeys } from '../config/analysis-rules.js';
import { reportOptionKeys } from '../config/report-options.js';

const ALWAYS = new Set(['file', 'stages', 'executor']);

/** Each typed section: its fields and the key of pipeline.yaml each is read from. */
const TYPED: Readonly<Record<string, Readonly<Record<string, string>>>> = { rules: analysisRuleKeys, reportOptions: reportOptionKeys };

export function declaredConfig(config: PipelineConfig, kind: string, reads: readonly string[]): PipelineConfig {
  const declared = (key: string): boolean => reads.some((r) => key === r || key.startsWith(`${r}.`));
  const bug = (key: string, declare: string): Error =>
    new Error(
      `bug: stage kind ${kind} reads config key '${key}' but does not declare it in its reads (add ${declare} to reads in stages/${kind}.ts, so its key changes when the key does)`,
    );
  const typedView = (section: string, target: object): object => {
    const fields = TYPED[section]!;
    const seen = (prop: string): boolean => fields[prop] !== undefined && declared(fields[prop]!);
    if (Object.keys(fields).every(seen)) return target; // the whole section declared: the object itself (a worker can clone it)
    return new Proxy(target as Record<string, unknown>, {
      ownKeys: (t) => Reflect.ownKeys(t).filter((k) => typeof k === 'string' && seen(k)),
      getOwnPropertyDescriptor: (t, prop) => (typeof prop === 'string' && !seen(prop) ? undefined : Reflect.getOwnPropertyDescriptor(t, prop)),
      get(t, prop, receiver) {
        if (typeof prop === 'symbol' || (prop === 'toJSON' && !(prop in t)) || seen(prop)) return Reflect.get(t, prop, receiver);
        throw bug(`${section}.${prop}`, `'${fields[prop] ?? prop}'`);
      },
    });
  };
  const anyTyped = (section: string): boolean => Object.values(TYPED[section]!).some(declared);
  const view = (target: unknown, path: string): unknown => {
    if (!target || typeof target !== 'object' || Array.isArray(target)) return target;
    if (path !== '' && reads.includes(path)) return target; // the whole section or key is declared
    const keyOf = (prop: string): string => (path ? `${path}.${prop}` : prop);
    const typed = (prop: string): boolean => path === '' && TYPED[prop] !== undefined;
    const whole = (prop: string): boolean => (path === '' && ALWAYS.has(prop)) || reads.includes(keyOf(prop));
    const partly = (prop: string): boolean => (typed(prop) ? anyTyped(prop) : reads.some((r) => r.startsWith(`${keyOf(prop)}.`)));
    return new Proxy(target as Record<string, unknown>, {
      // JSON.stringify and Object.keys see the declared keys only (a Slurm job spec carries what the stage reads).
      ownKeys: (t) => Reflect.ownKeys(t).filter((k) => typeof k === 'string' && (whole(k) || partly(k))),
      getOwnPropertyDescriptor: (t, prop) =>
        typeof prop === 'string' && !whole(prop) && !partly(prop) ? undefined : Reflect.getOwnPropertyDescriptor(t, prop),
      get(t, prop, receiver) {
        if (typeof prop === 'symbol' || (prop === 'toJSON' && !(prop in t))) return Reflect.get(t, prop, receiver);
        const key = keyOf(prop);
        if (typed(prop)) {
          const v = Reflect.get(t, prop, receiver);
          return v && typeof v === 'object' ? typedView(prop, v) : v;
        }
        if (whole(prop)) return Reflect.get(t, prop, receiver);
        if (partly(prop)) return view(Reflect.get(t, prop, receiver), key);
        throw bug(key, 'it');
      },
    });
  };
  return view(config, '') as PipelineConfig;
}
