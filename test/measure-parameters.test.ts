// Pure: commands made from parameter scans and lists, and command strings split without a shell.
import test from 'ava';
import { UserError } from '../harness/errors.js';
import { argvGroups, buildCommands, listValues, scanValues } from '../harness/measure/command-list.js';
import { shellWords } from '../harness/measure/shell-words.js';

test('a parameter scan makes one command per value with {NAME} replaced in words and label', (t) => {
  const commands = buildCommands([{ kind: 'string', text: 'sleep 0.0{n}' }], {
    names: ['nap {n}'],
    shell: 'none',
    parameters: [scanValues('n', '1', '3', undefined)],
  });
  t.deepEqual(
    commands.map((c) => c.argv),
    [
      ['sleep', '0.01'],
      ['sleep', '0.02'],
      ['sleep', '0.03'],
    ],
  );
  t.deepEqual(
    commands.map((c) => c.name),
    ['nap 1', 'nap 2', 'nap 3'],
  );
  t.deepEqual(
    commands.map((c) => c.parameters),
    [{ n: '1' }, { n: '2' }, { n: '3' }],
  );
});

test('a scan with a decimal step keeps the step decimals and includes HI', (t) => {
  t.deepEqual(scanValues('x', '0', '0.3', '0.1').values, ['0.0', '0.1', '0.2', '0.3']);
});

test('a scan whose HI is below LO is a user error naming --parameter-scan', (t) => {
  const e = t.throws(() => scanValues('n', '5', '1', undefined));
  t.true(e instanceof UserError);
  t.is((e as UserError).place.key, '--parameter-scan');
});

test('two parameter lists make every combination', (t) => {
  const commands = buildCommands([{ kind: 'argv', argv: ['echo', '{a}-{b}'] }], {
    names: [],
    shell: 'none',
    parameters: [listValues('a', 'x,y'), listValues('b', '1,2')],
  });
  t.deepEqual(
    commands.map((c) => c.argv[1]),
    ['x-1', 'x-2', 'y-1', 'y-2'],
  );
});

test('a command string with --shell runs as SHELL -c STRING', (t) => {
  const [c] = buildCommands([{ kind: 'string', text: 'echo $HOME | wc -c' }], { names: [], shell: 'bash', parameters: [] });
  t.deepEqual(c!.argv, ['bash', '-c', 'echo $HOME | wc -c']);
});

test('without a shell, quotes group words and are removed', (t) => {
  t.deepEqual(shellWords(`sh -c 'echo "a b"' "x\\"y" z\\ w`), { words: ['sh', '-c', 'echo "a b"', 'x"y', 'z w'] });
});

test('commands after -- are split at each further --', (t) => {
  t.deepEqual(argvGroups(['sleep', '0.1', '--', 'sh', '-c', 'echo x']), [
    ['sleep', '0.1'],
    ['sh', '-c', 'echo x'],
  ]);
});
