// `pipeline init [DIR] [--kind launch|effects|commit]`: writes a commented
// pipeline.yaml to start an experiment of your own from. The launch kind (the
// default) runs as written, without root, in seconds; effects and commit are
// the small real examples of the other experiment kinds. Never overwrites.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { projectRoot } from '../process/project-root.js';
import type { CliCommand } from './cli-command.js';

const KINDS = ['launch', 'effects', 'commit'] as const;

export const initCommand: CliCommand = {
  summary: 'write a commented pipeline.yaml for an experiment of your own',
  usage: 'pipeline init [DIR] [--kind launch|effects|commit]',
  about:
    'Writes DIR/pipeline.yaml (DIR defaults to the current folder, created if missing). --kind launch\n(default) runs as written without root in seconds; effects and commit need root. Refuses to overwrite.\nThen: cd DIR && pipeline run. Guide: docs/WRITING-AN-EXPERIMENT.md.',
  flags: { kind: { kind: 'string', value: 'KIND', help: 'launch (default), effects or commit' } },
  positionals: true,
  run: async ({ flags, positional }) => {
    const kind = String(flags['kind'] ?? 'launch');
    if (!(KINDS as readonly string[]).includes(kind)) throw new UserError(`unknown kind '${kind}'`, { key: '--kind' }, `use one of: ${KINDS.join(', ')}`);
    if (positional.length > 1) throw new UserError(`one folder, not ${positional.length}`, { key: 'init' }, 'usage: pipeline init [DIR] [--kind KIND]');
    const dir = resolve(positional[0] ?? '.');
    const file = join(dir, 'pipeline.yaml');
    const shown = relative(process.cwd(), file) || file;
    if (existsSync(file)) throw new UserError('already exists; init never overwrites', { file: shown }, 'pick another folder: pipeline init DIR');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, readFileSync(join(projectRoot(), 'harness', 'cli', 'init-templates', `${kind}.yaml`), 'utf8'), { flag: 'wx' });
    const cd = relative(process.cwd(), dir);
    process.stdout.write(
      `wrote ${shown} (${kind} experiment${kind === 'launch' ? ', runs without root in seconds' : ', needs root'})\nnext: ${cd ? `cd ${cd} && ` : ''}pipeline run\n`,
    );
    return 0;
  },
};
