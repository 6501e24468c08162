// Each malformed pipeline gives exit 2 and one line `FILE:LINE:COL: key: what (hint)`, no stack trace.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runCli, tempDir } from './helpers/cli.js';

const smoke = readFileSync(join(projectRoot, 'pipelines', 'smoke.yaml'), 'utf8');

interface Case {
  name: string;
  text: string;
  args?: string[];
  /** expected start of the error line after `error: ` */
  expect: RegExp;
}

const minimal = `experiment:
  name: t
  question: q?
cohorts:
  c:
    command: [sh, -c, 'echo {marker}']
paths:
  p:
    launch: ['{command}']
stages:
  - id: warmup
    uses: warmup
  - id: sample
    uses: sample
    needs: [warmup]
`;

const cases: Case[] = [
  { name: 'bad YAML indentation', text: 'experiment:\n  name: t\n question: q\n', expect: /^pipeline\.yaml:3:\d+: invalid YAML/ },
  {
    name: 'an unclosed flow sequence',
    text: minimal.replace("launch: ['{command}']", "launch: ['{command}'"),
    expect: /^pipeline\.yaml:\d+:\d+: invalid YAML/,
  },
  {
    name: 'a duplicate key',
    text: minimal.replace('  name: t\n', '  name: t\n  name: u\n'),
    expect: /^pipeline\.yaml:3:\d+: invalid YAML: Map keys must be unique/,
  },
  { name: 'a top-level list', text: '- a\n- b\n', expect: /^pipeline\.yaml:1:1: the pipeline file must be a mapping/ },
  { name: 'an unknown top-level key', text: minimal + 'colors: red\n', expect: /^pipeline\.yaml:16:1: colors: unknown key/ },
  {
    name: 'an unknown design key',
    text: minimal + 'design:\n  round: 3\n',
    expect: /^pipeline\.yaml:17:3: design\.round: unknown key \(did you mean 'rounds'\?\)/,
  },
  {
    name: 'a misspelt key of a nested section',
    text: minimal + 'design:\n  adaptive:\n    max_session: 6\n',
    expect: /^pipeline\.yaml:18:5: design\.adaptive\.max_session: unknown key \(did you mean 'max_sessions'\?\)/,
  },
  {
    name: 'an unknown key like no known one',
    text: minimal + 'design:\n  colour: 3\n',
    expect: /design\.colour: unknown key \(remove it or check its spelling against the schema\)/,
  },
  { name: 'rounds of the wrong type', text: minimal + 'design:\n  rounds: many\n', expect: /^pipeline\.yaml:17:\d+: design\.rounds: must be integer/ },
  { name: 'zero rounds', text: minimal + 'design:\n  rounds: 0\n', expect: /^pipeline\.yaml:17:\d+: design\.rounds: must be >= 1/ },
  {
    name: 'an unknown cache state',
    text: minimal + 'design:\n  states: [cold, lukewarm]\n',
    expect: /^pipeline\.yaml:17:\d+: design\.states\[1\]: must be one of "cold", "warm"/,
  },
  { name: 'a missing experiment name', text: minimal.replace('  name: t\n', ''), expect: /^pipeline\.yaml:2:\d+: experiment: missing required key 'name'/ },
  {
    name: 'a missing stages section',
    text: minimal.slice(0, minimal.indexOf('stages:')),
    expect: /^pipeline\.yaml:1:1: \(top level\): missing required key 'stages'/,
  },
  {
    name: 'an unknown stage kind',
    text: minimal.replace('uses: sample', 'uses: sampel'),
    expect: /^pipeline\.yaml:14:11: stages\[1\]\.uses: unknown stage kind 'sampel'/,
  },
  {
    name: 'an unknown need',
    text: minimal.replace('needs: [warmup]', 'needs: [warmpu]'),
    expect: /^pipeline\.yaml:15:13: stages\[1\]\.needs\[0\]: needs unknown stage 'warmpu'/,
  },
  {
    name: 'a duplicate stage id',
    text: minimal + '  - id: sample\n    uses: warmup\n',
    expect: /^pipeline\.yaml:16:\d+: stages\[2\]\.id: duplicate stage id 'sample'/,
  },
  {
    name: 'a cycle',
    text: minimal.replace('    uses: warmup\n', '    uses: warmup\n    needs: [sample]\n'),
    expect: /^pipeline\.yaml:\d+:\d+: stages\[0\]\.needs: cycle in needs: warmup -> sample -> warmup/,
  },
  {
    name: 'a stage that needs itself',
    text: minimal.replace('needs: [warmup]', 'needs: [sample]'),
    expect: /stages\[1\]\.needs\[0\]: stage 'sample' needs itself/,
  },
  {
    name: 'a stage id with capitals',
    text: minimal.replace('id: sample', 'id: Sample'),
    expect: /^pipeline\.yaml:13:\d+: stages\[1\]\.id: must match pattern/,
  },
  {
    name: 'an unknown stage parameter',
    text: minimal.replace('    needs: [warmup]\n', '    needs: [warmup]\n    with: { speed: fast }\n'),
    expect: /^pipeline\.yaml:16:\d+: stages\[1\]\.with\.speed: unknown key/,
  },
  {
    name: 'a launch that is a string',
    text: minimal.replace("launch: ['{command}']", "launch: '{command}'"),
    expect: /^pipeline\.yaml:9:\d+: paths\.p\.launch: must be array/,
  },
  {
    name: 'an invalid stdout pattern',
    text: minimal.replace("command: [sh, -c, 'echo {marker}']", "command: [sh, -c, 'echo {marker}']\n    expect: { stdout_patterns: ['(unclosed'] }"),
    expect: /^pipeline\.yaml:7:\d+: cohorts\.c\.expect\.stdout_patterns\[0\]: not a regular expression/,
  },
  {
    name: 'a cohort image that is not declared',
    text: minimal.replace("    command: [sh, -c, 'echo {marker}']\n", "    image: nope\n    command: [sh, -c, 'echo {marker}']\n"),
    expect: /^pipeline\.yaml:6:\d+: cohorts\.c\.image: unknown image 'nope'/,
  },
  {
    name: 'a path counting an undeclared service',
    text: minimal.replace("    launch: ['{command}']\n", "    launch: ['{command}']\n    services: [registry]\n"),
    expect: /^pipeline\.yaml:10:\d+: paths\.p\.services\[0\]: unknown service 'registry'/,
  },
  { name: 'a negative timeout', text: minimal + 'design:\n  timeout_s: -1\n', expect: /^pipeline\.yaml:17:\d+: design\.timeout_s: must be > 0/ },
  { name: 'a --set without a value', text: minimal, args: ['--set', 'design.rounds'], expect: /^--set: expected KEY=VALUE/ },
  {
    name: 'a --set of the wrong type',
    text: minimal,
    args: ['--set', 'design.rounds=many'],
    expect: /design\.rounds: must be integer .*\[from --set design\.rounds=many\]/,
  },
  {
    name: 'a --set of an unknown key',
    text: minimal,
    args: ['--set', 'design.speed=3'],
    expect: /design\.speed: unknown key .*\[from --set design\.speed=3\]/,
  },
  {
    name: 'a misspelt placeholder in a launch template',
    text: minimal.replace("launch: ['{command}']", "launch: ['{harnes}/x.sh', '{command}']"),
    expect: /^pipeline\.yaml:\d+:\d+: paths\.p\.launch\[0\]: unknown placeholder \{harnes\} \(did you mean \{harness\}\?\)/,
  },
  {
    name: 'an image placeholder in a cohort that names no image',
    text: minimal.replace("command: [sh, -c, 'echo {marker}']", "command: [sh, -c, 'echo {marker} {image.manifest_digest}']"),
    expect: /^pipeline\.yaml:\d+:\d+: cohorts\.c\.command\[2\]: \{image\.manifest_digest\}: this cohort names no image/,
  },
  {
    name: 'a placeholder naming an undeclared service',
    text: minimal.replace("launch: ['{command}']", "launch: ['{services.registy.url}', '{command}']"),
    expect: /^pipeline\.yaml:\d+:\d+: paths\.p\.launch\[0\]: unknown placeholder \{services\.registy\.url\} \(no services are declared\)/,
  },
  {
    name: 'a comparison naming a cohort instead of a path',
    text: minimal + 'analysis:\n  comparisons: [{ a: c, b: p }]\n',
    expect: /^pipeline\.yaml:\d+:\d+: analysis\.comparisons\[0\]\.a: 'c' is a cohort, not a path: a comparison is between two paths/,
  },
  {
    name: 'a comparison naming a misspelt path',
    text: minimal + 'analysis:\n  comparisons: [{ a: p, b: q }]\n',
    expect: /^pipeline\.yaml:\d+:\d+: analysis\.comparisons\[0\]\.b: unknown path 'q' \(did you mean 'p'\? \(paths: p\)\)/,
  },
  {
    name: 'a unit comparison naming a path instead of a cohort',
    text: minimal + 'analysis:\n  comparisons: [{ factor: unit, a: p, b: c }]\n',
    expect:
      /^pipeline\.yaml:\d+:\d+: analysis\.comparisons\[0\]\.a: 'p' is a path, not a cohort: a unit comparison is between two cohorts \(drop 'factor' to compare paths\)/,
  },
  {
    name: 'a condition comparison naming a misspelt state',
    text: minimal + 'analysis:\n  comparisons: [{ factor: condition, a: cold, b: wram }]\n',
    expect: /^pipeline\.yaml:\d+:\d+: analysis\.comparisons\[0\]\.b: unknown state 'wram' \(did you mean 'warm'\? \(states: cold, warm\)\)/,
  },
  {
    name: 'a comparison along an unknown factor',
    text: minimal + 'analysis:\n  comparisons: [{ factor: image, a: c, b: d }]\n',
    expect: /^pipeline\.yaml:\d+:\d+: analysis\.comparisons\[0\]\.factor: .*(arm|unit|condition)/,
  },
  {
    // issue 42: one list of comparisons and one margin, the analysis's; design.adaptive keeps no copy
    name: 'an adaptive copy of analysis.comparisons',
    text: minimal + 'design:\n  adaptive:\n    comparisons: [{ a: p, b: q }]\n',
    expect:
      /^pipeline\.yaml:18:5: design\.adaptive\.comparisons: copies analysis\.comparisons, which it now reads \(drop it and set analysis\.comparisons instead\)/,
  },
  {
    name: 'an adaptive copy of the practical margin',
    text: minimal + 'design:\n  adaptive:\n    min_sessions: 3\n    margin: 0.05\n',
    expect:
      /^pipeline\.yaml:19:5: design\.adaptive\.margin: copies analysis\.practical\.min_ratio_change, which it now reads \(drop it and set analysis\.practical\.min_ratio_change instead\)/,
  },
  { name: 'a --set on the graph', text: minimal, args: ['--set', 'stages.0.id=x'], expect: /^--set: stages cannot be changed with --set/ },
  { name: 'an unknown flag', text: minimal, args: ['--frobnicate'], expect: /^--frobnicate: unknown flag/ },
  { name: 'a missing file', text: '', args: ['-f', 'nowhere.yaml'], expect: /^nowhere\.yaml: no such pipeline file/ },
];

for (const c of cases) {
  test(`${c.name} is a user error with its place named (exit 2, one line, no stack)`, async (t) => {
    const dir = tempDir('benchgraph-cfg-');
    writeFileSync(join(dir, 'pipeline.yaml'), c.text);
    const r = await runCli(['run', '--dry-run', ...(c.args ?? [])], dir);
    t.is(r.code, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    t.is(lines.length, 1, r.stderr);
    t.regex(lines[0]!, /^error: /);
    t.regex(lines[0]!.slice('error: '.length), c.expect);
    t.notRegex(r.stderr, /\n\s+at /);
  });
}

test('the smoke pipeline itself is valid', async (t) => {
  const dir = tempDir('benchgraph-cfg-');
  writeFileSync(join(dir, 'pipeline.yaml'), smoke);
  const r = await runCli(['run', '--dry-run'], dir);
  t.is(r.code, 0, r.stderr);
});

test('several problems found by the cross-key rules are all reported, one line each, each at its place', async (t) => {
  const dir = tempDir('benchgraph-cfg-');
  const text =
    minimal.replace("    command: [sh, -c, 'echo {marker}']\n", "    image: nope\n    command: [sh, -c, 'echo {marker}']\n") +
    '  - id: sample\n    uses: nosuchkind\n';
  writeFileSync(join(dir, 'pipeline.yaml'), text);
  const r = await runCli(['run', '--dry-run'], dir);
  t.is(r.code, 2, r.stderr);
  const lines = r.stderr.trim().split('\n');
  t.is(lines.length, 3, r.stderr);
  t.regex(lines[0]!, /^error: pipeline\.yaml:\d+:\d+: stages\[2\]\.id: duplicate stage id 'sample'/);
  t.regex(lines[1]!, /^error: pipeline\.yaml:\d+:\d+: stages\[2\]\.uses: unknown stage kind 'nosuchkind'/);
  t.regex(lines[2]!, /^error: pipeline\.yaml:6:\d+: cohorts\.c\.image: unknown image 'nope'/);
});
