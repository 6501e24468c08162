import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliArgv, CLI_NODE_FLAGS, CLI_SHEBANG } from '../harness/process/cli-argv.js';
import { projectRoot } from '../harness/process/project-root.js';

const script = join(projectRoot(), 'bin', 'pipeline.js');

test('bin/pipeline.js starts with the shebang that gives Node the flags every pipeline runs with', (t) => {
  t.is(readFileSync(script, 'utf8').split('\n')[0], CLI_SHEBANG);
  t.true(CLI_NODE_FLAGS.includes('--no-concurrent-recompilation'));
});

test('the processes we start run pipeline with those flags before the script, and the arguments after it', (t) => {
  const argv = cliArgv(['history', '--json']);
  t.deepEqual(argv, [process.execPath, ...CLI_NODE_FLAGS, script, 'history', '--json']);
});

test('./bin/pipeline.js runs through its shebang, and Node takes the flags', (t) => {
  const r = spawnSync(script, ['--version'], { encoding: 'utf8' });
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /\d+\.\d+/);
  // an unknown flag in the shebang would stop Node before the script
  const bad = spawnSync('/usr/bin/env', ['-S', 'node --no-such-flag-at-all', script, '--version'], { encoding: 'utf8' });
  t.not(bad.status, 0);
});

test('npm test starts AVA, and npm run pipeline the CLI, with the same flags', (t) => {
  const scripts = (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const flags = CLI_NODE_FLAGS.join(' ');
  t.true(scripts['test']!.endsWith(`node ${flags} node_modules/ava/entrypoints/cli.mjs`), scripts['test']);
  t.is(scripts['pipeline'], `node ${flags} bin/pipeline.js`);
});
