// Pure: expands {placeholders} in command templates (see docs/CONTRACTS.md).
// An element that is exactly {command} expands to the cohort's argv; an
// unknown placeholder is an error naming it, never a silent empty string.

export type TemplateValues = Record<string, string>;

const PLACEHOLDER = /\{([A-Za-z0-9_.-]+)\}/g;

export class TemplateError extends Error {}

export function expandString(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new TemplateError(`unknown placeholder {${name}}`);
    return v;
  });
}

export function expandArgv(template: readonly string[], values: TemplateValues, command: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const part of template) {
    if (part === '{command}') out.push(...command.map((c) => expandString(c, values)));
    else out.push(expandString(part, values));
  }
  return out;
}

/** Flattens nested objects into dotted keys with string values: {image: {ref: 'x'}} -> {'image.ref': 'x'}. */
export function flattenValues(prefix: string, value: unknown, out: TemplateValues = {}): TemplateValues {
  if (value === null || value === undefined) return out;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    out[prefix] = String(value);
    return out;
  }
  if (Array.isArray(value)) return out;
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flattenValues(prefix ? `${prefix}.${k}` : k, v, out);
  }
  return out;
}
