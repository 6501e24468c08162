// Step 3 of config loading: rules that span keys (the schema checks one key at
// a time): duplicate ids, unknown needs, cycles, unknown stage kinds, and
// references between sections.
import { UserError } from '../errors.js';
import { positionOf, type YamlSource } from './yaml-source.js';
import { findCycle } from './stage-graph.js';

interface RawStage {
  id: string;
  uses: string;
  needs: string[];
}

export function checkCrossRules(src: YamlSource, value: Record<string, unknown>, knownKinds: ReadonlySet<string>): void {
  const stages = value['stages'] as RawStage[];
  const err = (path: (string | number)[], message: string, hint: string, keyOfLast = false): UserError => {
    const pos = positionOf(src, path, keyOfLast);
    const key = path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');
    return new UserError(message, { file: src.file, line: pos.line, col: pos.col, key }, hint);
  };

  const seen = new Map<string, number>();
  stages.forEach((s, i) => {
    if (seen.has(s.id)) {
      throw err(['stages', i, 'id'], `duplicate stage id '${s.id}' (first at stages[${seen.get(s.id)}])`, 'give each stage a unique id');
    }
    seen.set(s.id, i);
  });
  stages.forEach((s, i) => {
    if (!knownKinds.has(s.uses)) {
      throw err(['stages', i, 'uses'], `unknown stage kind '${s.uses}'`, `known kinds: ${[...knownKinds].sort().join(', ')}`);
    }
    s.needs.forEach((n, j) => {
      if (!seen.has(n)) throw err(['stages', i, 'needs', j], `needs unknown stage '${n}'`, `declare a stage with id '${n}' or remove it from needs`);
      if (n === s.id) throw err(['stages', i, 'needs', j], `stage '${s.id}' needs itself`, 'remove it from needs');
    });
  });
  const cycle = findCycle(stages.map((s) => ({ id: s.id, needs: s.needs })));
  if (cycle) {
    const first = seen.get(cycle[0]!)!;
    throw err(['stages', first, 'needs'], `cycle in needs: ${[...cycle, cycle[0]].join(' -> ')}`, 'a stage cannot depend on itself through others; remove one of these needs');
  }

  const states = ((value['design'] as { states?: string[] } | undefined)?.states ?? []) as string[];
  if (states.length === 2 && states[0] !== 'cold') {
    throw err(['design', 'states'], 'warm comes before cold', 'write [cold, warm]: each cold launch is followed immediately by the warm launch of its pair');
  }

  const services = (value['services'] ?? {}) as Record<string, { data_from?: string }>;
  for (const [id, svc] of Object.entries(services)) {
    if (svc && svc.data_from !== undefined && !seen.has(svc.data_from)) {
      throw err(['services', id, 'data_from'], `data_from names unknown stage '${svc.data_from}'`, 'name the stage that prepares this service');
    }
  }
  const paths = (value['paths'] ?? {}) as Record<string, { services?: string[] }>;
  for (const [id, p] of Object.entries(paths)) {
    (p.services ?? []).forEach((s, j) => {
      if (!(s in services)) throw err(['paths', id, 'services', j], `unknown service '${s}'`, `declare it under services: or remove it`);
    });
  }
  const images = ((value['artifacts'] as Record<string, unknown> | undefined)?.['images'] ?? {}) as Record<string, unknown>;
  const cohorts = (value['cohorts'] ?? {}) as Record<string, { image?: string }>;
  for (const [id, c] of Object.entries(cohorts)) {
    if (c.image !== undefined && !(c.image in images)) {
      throw err(['cohorts', id, 'image'], `unknown image '${c.image}'`, 'declare it under artifacts.images');
    }
  }
}
