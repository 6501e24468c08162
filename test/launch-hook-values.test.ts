import test from 'ava';
import { hookValues } from '../harness/launch-arms/hook-values.js';

test('an after_cold hook sets only the hook columns, as non-negative integers; other output is ignored', (t) => {
  t.deepEqual(hookValues('walking /x\nBENCHGRAPH-VALUE files_read 12\nBENCHGRAPH-VALUE image_files 3400\n'), { files_read: 12, image_files: 3400 });
  t.deepEqual(hookValues('nothing to say\n'), {});
  t.throws(() => hookValues('BENCHGRAPH-VALUE ready_ms 1\n'), { message: /may set files_read or image_files, not 'ready_ms'/ });
  t.throws(() => hookValues('BENCHGRAPH-VALUE files_read -3\n'), { message: /non-negative integer/ });
});
