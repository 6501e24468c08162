// Where the schema validators compiled at build time are (dist/schemas/validators.cjs),
// checked to be there and not older than the schemas they were compiled from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { projectRoot, schemasDir } from '../process/project-root.js';

/** The compiled validators' file; throws when it is missing or older than schemas/. */
export function validatorsFile(): string {
  const file = join(projectRoot(), 'dist', 'schemas', 'validators.cjs');
  if (!existsSync(file)) throw new Error(`${file} is missing: run 'npm run build'`);
  const dir = schemasDir();
  const sources = [...readdirSync(dir).map((f) => join(dir, f)), ...readdirSync(join(dir, 'stages')).map((f) => join(dir, 'stages', f))].filter((f) =>
    f.endsWith('.json'),
  );
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  if (statSync(file).mtimeMs + 1 < newest) throw new UserError('the compiled schemas are older than schemas/', { file }, "run 'npm run build'");
  return file;
}
