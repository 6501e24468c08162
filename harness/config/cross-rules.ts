// Step 3 of config loading: rules that span keys (the schema checks one key at
// a time). Each rule looks at the whole config and returns its findings; every
// finding is reported, each at its place, up to a limit.
import type { Finding, Rule, RuleContext } from './rule-types.js';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError, UserErrors } from '../errors.js';
import { positionOf, type YamlSource } from './yaml-source.js';
import { findCycle } from './stage-graph.js';
import { imageKeyRules } from './image-rules.js';
import { commandServiceRules } from './command-service-rules.js';
import { comparisonRules, templateRules } from './template-rules.js';

interface RawStage {
  id: string;
  uses: string;
  needs: string[];
}

const MAX_REPORTED = 10;

const stagesOf = (value: Record<string, unknown>): RawStage[] => value['stages'] as RawStage[];

const uniqueStageIds: Rule = (value) => {
  const seen = new Map<string, number>();
  const out: Finding[] = [];
  stagesOf(value).forEach((s, i) => {
    if (seen.has(s.id))
      out.push({
        path: ['stages', i, 'id'],
        message: `duplicate stage id '${s.id}' (first at stages[${seen.get(s.id)}])`,
        hint: 'give each stage a unique id',
      });
    else seen.set(s.id, i);
  });
  return out;
};

const knownKindsAndNeeds: Rule = (value, knownKinds) => {
  const ids = new Set(stagesOf(value).map((s) => s.id));
  const out: Finding[] = [];
  stagesOf(value).forEach((s, i) => {
    if (!knownKinds.has(s.uses))
      out.push({ path: ['stages', i, 'uses'], message: `unknown stage kind '${s.uses}'`, hint: `known kinds: ${[...knownKinds].sort().join(', ')}` });
    s.needs.forEach((n, j) => {
      if (n === s.id) out.push({ path: ['stages', i, 'needs', j], message: `stage '${s.id}' needs itself`, hint: 'remove it from needs' });
      else if (!ids.has(n))
        out.push({ path: ['stages', i, 'needs', j], message: `needs unknown stage '${n}'`, hint: `declare a stage with id '${n}' or remove it from needs` });
    });
  });
  return out;
};

const noCycle: Rule = (value) => {
  const stages = stagesOf(value);
  const ids = new Set(stages.map((s) => s.id));
  const cycle = findCycle(stages.map((s) => ({ id: s.id, needs: s.needs.filter((n) => ids.has(n) && n !== s.id) })));
  if (!cycle) return [];
  const first = stages.findIndex((s) => s.id === cycle[0]);
  return [
    {
      path: ['stages', first, 'needs'],
      message: `cycle in needs: ${[...cycle, cycle[0]].join(' -> ')}`,
      hint: 'a stage cannot depend on itself through others; remove one of these needs',
    },
  ];
};

const coldBeforeWarm: Rule = (value) => {
  const states = (value['design'] as { states?: string[] } | undefined)?.states ?? [];
  return states.length === 2 && states[0] !== 'cold'
    ? [
        {
          path: ['design', 'states'],
          message: 'warm comes before cold',
          hint: 'write [cold, warm]: each cold launch is followed immediately by the warm launch of its pair',
        },
      ]
    : [];
};

const serviceReferences: Rule = (value) => {
  const ids = new Set(stagesOf(value).map((s) => s.id));
  const services = (value['services'] ?? {}) as Record<string, { data_from?: string }>;
  const out: Finding[] = [];
  for (const [id, svc] of Object.entries(services)) {
    if (svc && svc.data_from !== undefined && !ids.has(svc.data_from)) {
      out.push({
        path: ['services', id, 'data_from'],
        message: `data_from names unknown stage '${svc.data_from}'`,
        hint: 'name the stage that prepares this service',
      });
    }
  }
  const paths = (value['paths'] ?? {}) as Record<string, { services?: string[] }>;
  for (const [id, p] of Object.entries(paths)) {
    (p.services ?? []).forEach((s, j) => {
      if (!(s in services))
        out.push({
          path: ['paths', id, 'services', j],
          message: `unknown service '${s}'`,
          hint: Object.keys(services).length
            ? `the services are: ${Object.keys(services).sort().join(', ')}; declare it under services: or remove it`
            : 'no services are declared; declare it under services: or remove it',
        });
    });
  }
  return out;
};

const cohortReferences: Rule = (value) => {
  const images = ((value['artifacts'] as Record<string, unknown> | undefined)?.['images'] ?? {}) as Record<string, unknown>;
  const cohorts = (value['cohorts'] ?? {}) as Record<string, { image?: string; expect?: { stdout_patterns?: string[] } }>;
  const out: Finding[] = [];
  for (const [id, c] of Object.entries(cohorts)) {
    if (c.image !== undefined && !(c.image in images))
      out.push({ path: ['cohorts', id, 'image'], message: `unknown image '${c.image}'`, hint: 'declare it under artifacts.images' });
    (c.expect?.stdout_patterns ?? []).forEach((p, j) => {
      try {
        new RegExp(p);
      } catch (e) {
        out.push({
          path: ['cohorts', id, 'expect', 'stdout_patterns', j],
          message: `not a regular expression: ${(e as Error).message}`,
          hint: 'write a JavaScript regular expression',
        });
      }
    });
  }
  return out;
};

const RULES: readonly Rule[] = [
  uniqueStageIds,
  knownKindsAndNeeds,
  noCycle,
  coldBeforeWarm,
  serviceReferences,
  cohortReferences,
  imageKeyRules,
  commandServiceRules,
  templateRules,
  comparisonRules,
];

export function checkCrossRules(
  src: YamlSource,
  value: Record<string, unknown>,
  knownKinds: ReadonlySet<string>,
  exists: (path: string) => boolean = existsSync,
): void {
  const ctx: RuleContext = { pipelineDir: dirname(resolve(src.file)), written: (path) => src.doc.hasIn(path), exists };
  const errors = RULES.flatMap((rule) => rule(value, knownKinds, ctx)).map((f) => {
    const pos = positionOf(src, f.path, false);
    const key = f.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : p))
      .join('.')
      .replace(/\.\[/g, '[');
    return new UserError(f.message, { file: src.file, line: pos.line, col: pos.col, key }, f.hint);
  });
  if (errors.length === 1) throw errors[0]!;
  if (errors.length > 1) throw new UserErrors(errors, MAX_REPORTED);
}
