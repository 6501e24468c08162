// Pure: the one flag parser of the CLI (node:util parseArgs underneath).
import test from 'ava';
import { UserError } from '../harness/errors.js';
import { formatHelp, parseArgs, tupleValues, type FlagSpec } from '../harness/cli/parse-args.js';

const spec: FlagSpec = {
  runs: { kind: 'string', short: 'r', value: 'N', help: 'rounds' },
  json: { kind: 'boolean', help: 'JSON' },
  scan: { kind: 'string', short: 'P', arity: 3, value: 'NAME LO HI', help: 'scan' },
  name: { kind: 'list', short: 'n', value: 'NAME', help: 'label' },
};

test('short, long, inline and repeated flags parse, and everything after -- is kept apart', (t) => {
  const p = parseArgs(['-r', '3', '--json', '-n', 'a', '--name=b', 'pos', '--', '--json', 'x'], spec);
  t.deepEqual(p.flags, { runs: '3', json: true, name: ['a', 'b'] });
  t.deepEqual(p.positional, ['pos']);
  t.deepEqual(p.rest, ['--json', 'x']);
  t.false(p.help);
});

test('a flag of arity 3 takes the next three words', (t) => {
  const p = parseArgs(['-P', 'n', '1', '10', '--json'], spec);
  t.deepEqual(tupleValues(p.flags['scan'] as string), ['n', '1', '10']);
  t.is(p.flags['json'], true);
});

test('-h and --help are known to every command', (t) => {
  t.true(parseArgs(['-h'], {}).help);
  t.true(parseArgs(['--help'], spec).help);
});

test('each parse error is a user error naming the flag', (t) => {
  for (const [args, key] of [
    [['--frobnicate'], '--frobnicate'],
    [['--runs'], '--runs'],
    [['--json=yes'], '--json'],
    [['-P', 'n', '1'], '--scan'],
  ] as const) {
    const e = t.throws(() => parseArgs([...args], spec));
    t.true(e instanceof UserError, String(e));
    t.is((e as UserError).place.key, key, (e as Error).message);
  }
});

test('the help text lists every flag with its short form and value', (t) => {
  const help = formatHelp('pipeline x [flags]', 'Does x.', spec);
  t.regex(help, /^usage: pipeline x \[flags\]/);
  t.regex(help, /-P, --scan NAME LO HI\s+scan/);
  t.regex(help, /-n, --name NAME\s+label \(repeatable\)/);
  t.regex(help, /-h, --help/);
});
