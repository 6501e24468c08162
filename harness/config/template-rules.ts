// Cross-key rule: every {placeholder} a command template names is one a launch
// can fill (harness/launch-arms/launch-values.ts), so a typo fails when the config
// loads, `run --dry-run` included, with its file, line and key, instead of in
// preflight with exit 1. Templates: cohorts.*.command and env, paths.*.launch,
// env and hooks. A name is known when it is
//   - one of the launch's own values (marker, state, pair_dir, …) or {command};
//   - image.<field>, in a cohort that names an image, for a field the pin and
//     prepare stages write (IMAGE_TEMPLATE_FIELDS; test/config-template-rules
//     holds the list to the pin types);
//   - services.<id>.<field> for a declared service (its fields depend on its kind
//     and are checked when it starts).
import { closest } from './closest-name.js';
import { comparisonFactors, levelWord, type ComparisonFactor } from './comparison-factors.js';
import type { Finding, Rule } from './rule-types.js';

/** The values launchValues gives every launch, and {command}. */
export const LAUNCH_TEMPLATE_NAMES: readonly string[] = [
  'marker',
  'launch_id',
  'workspace',
  'pair_dir',
  'session_dir',
  'state',
  'cohort',
  'path',
  'round',
  'harness',
  'data',
  'command',
];

/** Fields of image.<field>: pins.json's image pin (camelCase), images.json's prepared image (snake_case), the id and the pin folder. */
export const IMAGE_TEMPLATE_FIELDS: readonly string[] = [
  'id',
  'dir',
  'manifestDigest',
  'manifestSize',
  'configDigest',
  'configSize',
  'tarSha256',
  'tarBytes',
  'erofsSha256',
  'erofsBytes',
  'recipeHash',
  'tarFile',
  'ociDir',
  'erofsFile',
  'repository',
  'kind',
  'manifest_digest',
  'config_digest',
  'config_size',
  'erofs_file',
  'erofs_bytes',
  'estargz_digest',
];

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

/** Why a placeholder cannot be filled, with a remedy, or null when it can. */
function unknownName(name: string, image: string | undefined, services: readonly string[]): { message: string; hint: string } | null {
  if (LAUNCH_TEMPLATE_NAMES.includes(name)) return null;
  const [head, second, ...rest] = name.split('.');
  if (head === 'image') {
    if (!image) return { message: `{${name}}: this cohort names no image`, hint: 'set cohorts.<id>.image, or drop the placeholder' };
    if (second === 'source' && rest.length) return null;
    const field = [second, ...rest].join('.');
    if (IMAGE_TEMPLATE_FIELDS.includes(field)) return null;
    const near = closest(field, IMAGE_TEMPLATE_FIELDS);
    return { message: `unknown placeholder {${name}}`, hint: near ? `did you mean {image.${near}}?` : `image fields: ${IMAGE_TEMPLATE_FIELDS.join(', ')}` };
  }
  if (head === 'services') {
    if (second !== undefined && services.includes(second) && rest.length) return null;
    if (second !== undefined && services.includes(second))
      return { message: `{${name}} names a service, not one of its values`, hint: `e.g. {services.${second}.url}` };
    const near = second ? closest(second, services) : null;
    return {
      message: `unknown placeholder {${name}}`,
      hint: near ? `did you mean {services.${near}.…}?` : services.length ? `the services are: ${services.join(', ')}` : 'no services are declared',
    };
  }
  const near = closest(name, LAUNCH_TEMPLATE_NAMES);
  return {
    message: `unknown placeholder {${name}}`,
    hint: near ? `did you mean {${near}}?` : `the placeholders are: ${LAUNCH_TEMPLATE_NAMES.map((n) => `{${n}}`).join(', ')}, {image.…}, {services.<id>.…}`,
  };
}

export const templateRules: Rule = (value) => {
  const services = Object.keys((value['services'] ?? {}) as Record<string, unknown>).sort();
  const cohorts = (value['cohorts'] ?? {}) as Record<string, { image?: string; command?: string[]; env?: Record<string, string> }>;
  const paths = (value['paths'] ?? {}) as Record<string, { launch?: string[]; env?: Record<string, string>; hooks?: Record<string, string[][]> }>;
  // A path's templates run with every cohort: an image placeholder needs every cohort to name one.
  const everyCohortImage = Object.values(cohorts).every((c) => c.image !== undefined) ? (Object.values(cohorts)[0]?.image ?? undefined) : undefined;
  const out: Finding[] = [];
  const check = (text: unknown, path: (string | number)[], image: string | undefined): void => {
    if (typeof text !== 'string') return;
    for (const m of text.matchAll(PLACEHOLDER)) {
      const problem = unknownName(m[1]!, image, services);
      if (problem) out.push({ path, ...problem });
    }
  };
  for (const [id, c] of Object.entries(cohorts)) {
    (c.command ?? []).forEach((s, i) => check(s, ['cohorts', id, 'command', i], c.image));
    for (const [k, v] of Object.entries(c.env ?? {})) check(v, ['cohorts', id, 'env', k], c.image);
  }
  for (const [id, p] of Object.entries(paths)) {
    (p.launch ?? []).forEach((s, i) => check(s, ['paths', id, 'launch', i], everyCohortImage));
    for (const [k, v] of Object.entries(p.env ?? {})) check(v, ['paths', id, 'env', k], everyCohortImage);
    for (const [hook, commands] of Object.entries(p.hooks ?? {}))
      (commands ?? []).forEach((argv, i) =>
        (Array.isArray(argv) ? argv : []).forEach((s, j) => check(s, ['paths', id, 'hooks', hook, i, j], everyCohortImage)),
      );
  }
  return out;
};

/**
 * analysis.comparisons (which design.adaptive decides too) names two levels of a
 * factor: declared paths (the arm, the default), or with `factor: unit` two
 * cohorts and with `factor: condition` two states. A name that is no such
 * level fails when the config loads, not in analyze ("has no formal
 * samples"), and a level of another factor is told apart from a typo.
 */
export const comparisonRules: Rule = (value) => {
  const paths = Object.keys((value['paths'] ?? {}) as Record<string, unknown>).sort();
  if (paths.length === 0) return [];
  const levels: Record<ComparisonFactor, string[]> = {
    arm: paths,
    unit: Object.keys((value['cohorts'] ?? {}) as Record<string, unknown>).sort(),
    condition: (((value['design'] as { states?: string[] } | undefined)?.states ?? ['cold', 'warm']) as string[]).slice().sort(),
  };
  type Named = { a?: string; b?: string; factor?: string }[];
  const lists: [(string | number)[], Named][] = [
    [['analysis', 'comparisons'], ((value['analysis'] as { comparisons?: Named } | undefined)?.comparisons ?? []) as Named],
  ];
  const out: Finding[] = [];
  for (const [at, comparisons] of lists)
    comparisons.forEach((c, i) => {
      const factor = comparisonFactors.includes(c.factor as ComparisonFactor) ? (c.factor as ComparisonFactor) : 'arm';
      const own = levels[factor];
      const word = levelWord[factor];
      for (const side of ['a', 'b'] as const) {
        const name = c[side];
        if (typeof name !== 'string' || own.includes(name)) continue;
        const other = comparisonFactors.find((f) => f !== factor && levels[f].includes(name));
        const near = closest(name, own);
        out.push({
          path: [...at, i, side],
          message: other
            ? `'${name}' is a ${levelWord[other]}, not a ${word}: ${factor === 'arm' ? 'a comparison is between two paths unless it names its factor' : `a ${factor} comparison is between two ${word}s`}`
            : `unknown ${word} '${name}'`,
          hint: other
            ? other === 'arm'
              ? `drop 'factor' to compare paths`
              : `to compare two ${levelWord[other]}s, with the others held fixed, add factor: ${other === 'unit' ? 'unit' : 'condition'}`
            : near
              ? `did you mean '${near}'? (${word}s: ${own.join(', ')})`
              : `the ${word}s are: ${own.join(', ')}`,
        });
      }
    });
  return out;
};
