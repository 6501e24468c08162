// docs/WRITING-AN-EXPERIMENT.md cannot rot: its sh blocks run in order in a
// fresh folder with `pipeline` on PATH (real crun, runsc, skopeo, umoci,
// registry, Python's http.server; root), each file block is written where
// the guide says, and every line of each text block after a command must
// appear, in order, in what the command printed (`…` matches anything).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, projectRoot, tempDir } from './helpers/cli.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { processesMentioning } from './helpers/processes.js';

type Step = { kind: 'sh'; command: string; expect: string[] | null } | { kind: 'file'; name: string; text: string };

/** Pure: the guide's steps, in order. */
export function tutorialSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  const re = /(?:<!-- file: (\S+) -->\s*)?```(\w+)\n([\s\S]*?)```/g;
  for (const m of markdown.matchAll(re)) {
    const [, file, lang, body] = m as unknown as [string, string | undefined, string, string];
    if (file) steps.push({ kind: 'file', name: file, text: body });
    else if (lang === 'sh') steps.push({ kind: 'sh', command: body.trim(), expect: null });
    else if (lang === 'text') {
      const last = steps[steps.length - 1];
      if (last?.kind === 'sh' && last.expect === null) last.expect = body.replace(/\n$/, '').split('\n');
    }
  }
  return steps;
}

/** Pure: the expected lines not found in order in the output (`…` matches any text; a line of only `…` skips). */
export function missingLines(expected: readonly string[], output: string): string[] {
  const lines = output.split('\n').map((l) => l.trimEnd());
  const missing: string[] = [];
  let at = 0;
  for (const e of expected) {
    if (e.trim() === '…') continue;
    const re = new RegExp(
      `^${e
        .split('…')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const i = lines.findIndex((l, j) => j >= at && re.test(l));
    if (i < 0) missing.push(e);
    else at = i + 1;
  }
  return missing;
}

const isRoot = process.getuid?.() === 0;
(isRoot ? test : test.skip)('every command of docs/WRITING-AN-EXPERIMENT.md runs on the real parts and prints what the guide shows', (t) => {
  t.timeout(600_000);
  const steps = tutorialSteps(readFileSync(join(projectRoot, 'docs', 'WRITING-AN-EXPERIMENT.md'), 'utf8'));
  t.true(steps.filter((s) => s.kind === 'sh').length >= 6, 'the guide has its commands');
  const home = tempDir('bg-tutorial-');
  mkdirSync(join(home, 'bin'));
  symlinkSync(cliPath, join(home, 'bin', 'pipeline'));
  const cwdFile = join(home, '.cwd');
  writeFileSync(cwdFile, home);
  for (const step of steps) {
    const cwd = readFileSync(cwdFile, 'utf8').trim();
    if (step.kind === 'file') {
      writeFileSync(join(cwd, step.name), step.text);
      continue;
    }
    const r = spawnSync('bash', ['-c', `exec 2>&1; set -e; ${step.command}\npwd > "$CWD_FILE"`], {
      cwd,
      env: { ...process.env, PATH: `${join(home, 'bin')}:${process.env['PATH']}`, CWD_FILE: cwdFile },
      encoding: 'utf8',
      timeout: 300_000,
    });
    const output = `${r.stdout}${r.stderr}`;
    t.is(r.status, 0, `\`${step.command}\` exited ${r.status}:\n${output}`);
    if (step.expect) t.deepEqual(missingLines(step.expect, output), [], `\`${step.command}\` printed:\n${output}`);
  }
  t.deepEqual(mountsUnder(home), [], 'nothing stays mounted');
  t.deepEqual(processesMentioning(home), [], 'no service is left running');
});

test('the guide parser finds files, commands and their outputs, and matches … as any text', (t) => {
  const md = 'x\n```sh\necho a\n```\n\n```text\nval…e\n```\n<!-- file: p.yaml -->\n\n```yaml\nk: v\n```\n';
  t.deepEqual(tutorialSteps(md), [
    { kind: 'sh', command: 'echo a', expect: ['val…e'] },
    { kind: 'file', name: 'p.yaml', text: 'k: v\n' },
  ]);
  t.deepEqual(missingLines(['a…', '…', 'c'], 'x\nabc\nb\nc\n'), []);
  t.deepEqual(missingLines(['c', 'a'], 'a\nc\n'), ['a'], 'order matters');
});

test('the arm adapter chapter of docs/WRITING-AN-EXPERIMENT.md runs on its own, without root, and prints what it shows', (t) => {
  t.timeout(120_000);
  const md = readFileSync(join(projectRoot, 'docs', 'WRITING-AN-EXPERIMENT.md'), 'utf8');
  const chapter = md.slice(md.indexOf('## 7. An arm adapter'));
  const steps = tutorialSteps(chapter);
  t.deepEqual(
    steps.map((s) => s.kind),
    ['file', 'sh'],
  );
  const home = tempDir('bg-arm-adapter-');
  mkdirSync(join(home, 'bin'));
  symlinkSync(cliPath, join(home, 'bin', 'pipeline'));
  for (const step of steps) {
    if (step.kind === 'file') {
      writeFileSync(join(home, step.name), step.text);
      continue;
    }
    const r = spawnSync('bash', ['-c', `exec 2>&1; set -e; ${step.command}`], {
      cwd: home,
      env: { ...process.env, PATH: `${join(home, 'bin')}:${process.env['PATH']}` },
      encoding: 'utf8',
      timeout: 100_000,
    });
    const output = `${r.stdout}${r.stderr}`;
    t.is(r.status, 0, `\`${step.command}\` exited ${r.status}:\n${output}`);
    t.deepEqual(missingLines(step.expect ?? [], output), [], `\`${step.command}\` printed:\n${output}`);
  }
});
