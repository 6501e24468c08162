import test from 'ava';
import { instrumentCostCaveat, type InstrumentCost } from '../harness/stats/instrument-cost-caveat.js';

const costs: InstrumentCost[] = [
  { instrument: 'the byte-counting proxy', path: 'lazy', state: 'cold', lowMs: 20, highMs: 60 },
  { instrument: 'the byte-counting proxy', path: 'docker', state: 'cold', lowMs: -100, highMs: 300 },
];

test('a difference smaller than the upper end of a path cost interval carries a caveat naming the instrument and the interval', (t) => {
  t.is(
    instrumentCostCaveat({ a: 'oci-full', b: 'lazy', state: 'cold', observedMs: -45 }, costs),
    "the difference (-45.0 ms) is smaller than the instrument's own cost on one of its paths: the byte-counting proxy costs lazy cold 20.0 to 60.0 ms",
  );
});

test('a difference larger than every cost of its paths, or in another state, carries none', (t) => {
  t.is(instrumentCostCaveat({ a: 'oci-full', b: 'lazy', state: 'cold', observedMs: 500 }, costs), null);
  t.is(instrumentCostCaveat({ a: 'oci-full', b: 'lazy', state: 'warm', observedMs: 5 }, costs), null);
});

test('both paths of a difference are checked', (t) => {
  t.regex(instrumentCostCaveat({ a: 'docker', b: 'lazy', state: 'cold', observedMs: 200 }, costs)!, /docker cold -100.0 to 300.0 ms/);
});
