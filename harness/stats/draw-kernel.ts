// The bootstrap's inner loop, draws with replacement counted into a vector of
// draw counts, as a small WebAssembly module that steps four generator states
// at once (128-bit SIMD). The numbers are those of the plain loop the
// bootstraps write out (mulberry32-state.ts), bit for bit:
//
//   - the generator's state after d draws is state + d * 0x6d2b79f5 (mod 2^32),
//     so the four lanes start at state + 1..4 steps and advance by 4 steps;
//   - the hash is the same 32-bit integer operations lane by lane (i32x4.mul is
//     Math.imul's low 32 bits);
//   - the index floor(u / 2^32 * n) is the high half of the exact 64-bit
//     product u * n: in the plain loop u / 2^32 * n is exact in a double
//     (u * n < 2^53), so both are the same integer.
//
// A kernel draws a multiple of four; the caller draws the remainder with the
// plain loop, after the kernel, in order. The counts and tables live in the
// kernel's memory (views from `kernelMemory`). Where WebAssembly SIMD is not
// available `drawKernel()` is null and the bootstraps use the plain loop.

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
function sleb(n: number): number[] {
  const out: number[] = [];
  n |= 0;
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;
const V128 = 0x7b;
const STEP = 0x6d2b79f5;

// instructions
const get = (i: number): number[] => [0x20, ...uleb(i)];
const set = (i: number): number[] => [0x21, ...uleb(i)];
const i32 = (n: number): number[] => [0x41, ...sleb(n)];
const simd = (op: number, ...imm: number[]): number[] => [0xfd, ...uleb(op), ...imm];
const v128const = (lanes: number[]): number[] => {
  const b = new DataView(new ArrayBuffer(16));
  lanes.forEach((x, i) => b.setInt32(i * 4, x | 0, true));
  return simd(0x0c, ...new Uint8Array(b.buffer));
};
const splat = simd(0x11);
const lane = (l: number): number[] => simd(0x1b, l);
const vand = simd(0x4e);
const vor = simd(0x50);
const vxor = simd(0x51);
const vadd = simd(0xae);
const vsub = simd(0xb1);
const vmul = simd(0xb5);
const vshr = simd(0xad);
const vlt = simd(0x39);
const extmulLow = simd(0xde);
const extmulHigh = simd(0xdf);
/** The high 32 bits of each 64-bit lane of two vectors: four indices. */
const highHalves = simd(0x0d, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31);
const i32add = [0x6a];
const i32shl = [0x74];
const i32shr = [0x76];
const i32geu = [0x4f];
const load32 = [0x28, 2, 0];
const store32 = [0x36, 2, 0];
const load8 = [0x2d, 0, 0];

/** Pushes v ^ (v >>> s) of local `v`, per lane (unsigned shift). */
function xorShiftRight(v: number, s: number): number[] {
  return [...get(v), ...get(v), ...i32(s), ...vshr, ...vxor];
}

/** Pushes imul(v ^ (v >>> s), v | c) of local `v`, per lane: the mixing step mulberry32 takes twice. */
function imulMix(v: number, s: number, c: number): number[] {
  return [...xorShiftRight(v, s), ...get(v), ...v128const([c, c, c, c]), ...vor, ...vmul];
}

/**
 * The hash of the four lane states in local `x` into local `t` (u = t ^ t >>> 14, unsigned),
 * then the four indices floor(u * n / 2^32) into local `j`.
 */
function hashAndIndex(x: number, t: number, nv: number, j: number): number[] {
  return [
    // t = imul(x ^ (x >>> 15), x | 1)
    ...imulMix(x, 15, 1),
    ...set(t),
    // t ^= t + imul(t ^ (t >>> 7), t | 61)
    ...get(t),
    ...get(t),
    ...imulMix(t, 7, 61),
    ...vadd,
    ...vxor,
    ...set(t),
    // u = t ^ (t >>> 14)
    ...xorShiftRight(t, 14),
    ...set(t),
    // j = high halves of u * n (unsigned, 64 bits)
    ...get(t),
    ...get(nv),
    ...extmulLow,
    ...get(t),
    ...get(nv),
    ...extmulHigh,
    ...highHalves,
    ...set(j),
  ];
}

/** Local `to` (v128) gets local `from` (i32) in all four lanes. */
function splatInto(from: number, to: number): number[] {
  return [...get(from), ...splat, ...set(to)];
}

/** Pushes the i32 sum of the four lanes of local `v`. */
function laneSum(v: number): number[] {
  return [...get(v), ...lane(0), ...[1, 2, 3].flatMap((l) => [...get(v), ...lane(l), ...i32add])];
}

/** The i32 at byte `at + offset` of memory (`at` a local) += local `v`. */
function addToI32At(at: number, offset: number, v: number): number[] {
  const address = offset ? [...get(at), ...i32(offset), ...i32add] : get(at);
  return [...address, ...address, ...load32, ...get(v), ...i32add, ...store32];
}

/** Lane states: local `sv` holds the states of the next four draws; `x` takes them and `sv` advances. */
function advance(sv: number, x: number): number[] {
  return [...get(sv), ...set(x), ...get(sv), ...v128const([4 * STEP, 4 * STEP, 4 * STEP, 4 * STEP]), ...vadd, ...set(sv)];
}

/** The next four draws' indices in [0, n) into local `j`: the lane states advance (advance) and are hashed (hashAndIndex). */
function nextIndices(sv: number, x: number, t: number, nv: number, j: number): number[] {
  return [...advance(sv, x), ...hashAndIndex(x, t, nv, j)];
}

function initialLanes(stateParam: number, sv: number): number[] {
  return [...get(stateParam), ...splat, ...v128const([STEP, 2 * STEP, 3 * STEP, 4 * STEP]), ...vadd, ...set(sv)];
}

/** Pushes the address base + (lane l of vector local j) << shift, `base` a local. */
function laneAddress(j: number, l: number, shift: number, base: number): number[] {
  return [...get(j), ...lane(l), ...(shift ? [...i32(shift), ...i32shl] : []), ...get(base), ...i32add];
}

/** local.tee: local `i` gets the top of the stack, which stays. */
const tee = (i: number): number[] => [0x22, ...uleb(i)];

/** counts[index] += 1 for the 32-bit address base + index * 4, index the lane of vector local j. */
function countLane(j: number, l: number, countsParam: number, addr: number): number[] {
  return [...laneAddress(j, l, 2, countsParam), ...tee(addr), ...get(addr), ...load32, ...i32(1), ...i32add, ...store32];
}

/** A loop over i = 0, 4, .. < draws (local `i`, param `draws`) around `body`. */
function loop4(i: number, drawsParam: number, body: number[]): number[] {
  return [
    0x02,
    0x40, // block
    0x03,
    0x40, // loop
    ...get(i),
    ...get(drawsParam),
    ...i32geu,
    0x0d,
    1, // br_if 1: done
    ...body,
    ...get(i),
    ...i32(4),
    ...i32add,
    ...set(i),
    0x0c,
    0, // br 0
    0x0b,
    0x0b,
  ];
}

/**
 * counted(state, n, draws, counts, pivot) -> draws below pivot: `draws` (a multiple
 * of 4) indices in [0, n), each counted at counts (i32 per index).
 */
function countedBody(): number[] {
  // params 0 state, 1 n, 2 draws, 3 counts, 4 pivot; locals: v128 5 sv, 6 x, 7 t, 8 nv, 9 j, 10 acc, 11 pv; i32 12 i, 13 addr
  const [state, n, draws, counts, pivot] = [0, 1, 2, 3, 4];
  const [sv, x, t, nv, j, acc, pv, i, addr] = [5, 6, 7, 8, 9, 10, 11, 12, 13];
  const body = [
    ...nextIndices(sv, x, t, nv, j),
    // acc -= (j < pivot) (all ones: -1)
    ...get(acc),
    ...get(j),
    ...get(pv),
    ...vlt,
    ...vsub,
    ...set(acc),
    ...[0, 1, 2, 3].flatMap((l) => countLane(j, l, counts, addr)),
  ];
  const code = [...initialLanes(state, sv), ...splatInto(n, nv), ...splatInto(pivot, pv), ...loop4(i, draws, body), ...laneSum(acc)];
  return [2, 7, V128, 2, I32, ...code, 0x0b]; // locals: 7 v128, 2 i32
}

/**
 * rounds(state, n, draws, first, counts, table, out): `draws` (a multiple of 4) rounds
 * first + [0, n), each counted at counts (i32 per round); the byte table[r] of each
 * drawn round is summed: out[0] += sum, out[1] += sum of table[r] >> 1.
 */
function roundsBody(): number[] {
  // params 0 state, 1 n, 2 draws, 3 first, 4 counts, 5 table, 6 out; locals v128 7 sv, 8 x, 9 t, 10 nv, 11 j; i32 12 i, 13 addr, 14 sum, 15 high, 16 p
  const [state, n, draws, first, counts, table, out] = [0, 1, 2, 3, 4, 5, 6];
  const [sv, x, t, nv, j, i, addr, sum, high, p] = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
  const tableLane = (l: number): number[] => [
    ...laneAddress(j, l, 0, table),
    ...load8,
    ...tee(p),
    ...get(sum),
    ...i32add,
    ...set(sum),
    ...get(p),
    ...i32(1),
    ...i32shr,
    ...get(high),
    ...i32add,
    ...set(high),
  ];
  const body = [
    ...nextIndices(sv, x, t, nv, j),
    // j += first
    ...get(j),
    ...get(first),
    ...splat,
    ...vadd,
    ...set(j),
    ...[0, 1, 2, 3].flatMap((l) => [...countLane(j, l, counts, addr), ...tableLane(l)]),
  ];
  const code = [...initialLanes(state, sv), ...splatInto(n, nv), ...loop4(i, draws, body), ...addToI32At(out, 0, sum), ...addToI32At(out, 4, high)];
  return [2, 5, V128, 5, I32, ...code, 0x0b]; // locals: 5 v128, 5 i32
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Buffer.from(s, 'utf8')];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const counted = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([[I32]])];
  const rounds = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([])];
  const withSize = (body: number[]): number[] => [...uleb(body.length), ...body];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([counted, rounds])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 1]])), // one memory, at least one page
    ...section(
      7,
      vec([
        [...name('counted'), 0x00, 0],
        [...name('rounds'), 0x00, 1],
        [...name('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vec([withSize(countedBody()), withSize(roundsBody())])),
  ]);
}

export interface DrawKernel {
  /** Draws `draws` (a multiple of 4) indices in [0, n) from `state`, counting each at the i32 at byte `counts`; returns those below `pivot`. */
  counted(state: number, n: number, draws: number, counts: number, pivot: number): number;
  /** Draws `draws` (a multiple of 4) rounds first + [0, n), counting each at `counts`; adds the sum of their `table` bytes, and of those bytes >> 1, to the two i32 at byte `out`. */
  rounds(state: number, n: number, draws: number, first: number, counts: number, table: number, out: number): void;
  memory: WebAssembly.Memory;
}

let kernel: DrawKernel | null | undefined;

/** The kernel of this thread (compiled once), or null when WebAssembly SIMD is unavailable or BENCHGRAPH_DRAW_KERNEL=0. */
export function drawKernel(): DrawKernel | null {
  if (kernel !== undefined) return kernel;
  kernel = null;
  if (process.env['BENCHGRAPH_DRAW_KERNEL'] === '0' || typeof WebAssembly !== 'object') return kernel;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()));
    kernel = instance.exports as unknown as DrawKernel;
  } catch {
    kernel = null;
  }
  return kernel;
}

/** The kernel's memory grown to at least `bytes`; views made before a grow are detached, so take them after. */
export function kernelMemory(k: DrawKernel, bytes: number): ArrayBuffer {
  const have = k.memory.buffer.byteLength;
  if (bytes > have) k.memory.grow(Math.ceil((bytes - have) / 65536));
  return k.memory.buffer;
}

/** The generator's state after `draws` steps from `state`. */
export function stepped(state: number, draws: number): number {
  return (state + Math.imul(draws, STEP)) | 0;
}
