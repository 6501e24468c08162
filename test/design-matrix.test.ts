import test from 'ava';
import { matrixCells, matrixDimensions } from '../harness/experiment/design-matrix.js';

test('the cells of a matrix are every combination within each block, a cell shared by two blocks only once', (t) => {
  const blocks = [
    { total_mb: [100, 2000], file_count: [100] },
    { total_mb: [100], file_count: [100, 1000] },
  ];
  const cells = matrixCells(blocks);
  t.deepEqual(
    cells.map((c) => c.values),
    [
      { total_mb: 100, file_count: 100 },
      { total_mb: 2000, file_count: 100 },
      { total_mb: 100, file_count: 1000 },
    ],
  );
  t.is(new Set(cells.map((c) => c.id)).size, cells.length);
});

test('a block with two dimensions of two values gives their four combinations', (t) => {
  const cells = matrixCells([{ a: [1, 2], b: ['x', 'y'] }]);
  t.deepEqual(
    cells.map((c) => c.id),
    ['a=1,b=x', 'a=1,b=y', 'a=2,b=x', 'a=2,b=y'],
  );
});

test('an empty matrix is one cell without dimensions', (t) => {
  t.deepEqual(matrixCells([]), [{ id: '', values: {} }]);
  t.deepEqual(matrixDimensions([]), []);
});
