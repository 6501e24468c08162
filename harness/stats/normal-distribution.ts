// The standard normal distribution: the CDF through the complementary error
// function (Chebyshev fit of Numerical Recipes' erfcc, fractional error below
// 1.2e-7 everywhere, also in the far tails that alpha spending needs), the
// density, and the quantile by bisection on the CDF.

/** erfc(x), fractional error < 1.2e-7 (Press et al., Numerical Recipes, 2nd ed., 6.2). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z <= x). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** P(Z > x), accurate in the upper tail (no 1 - CDF cancellation). */
export function normalUpperTail(x: number): number {
  return 0.5 * erfc(x / Math.SQRT2);
}

export function normalDensity(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/** The p-quantile (0 < p < 1). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return Number.NaN;
  if (p < 0.5) return -normalQuantile(1 - p);
  let lo = 0;
  let hi = 40;
  const tail = 1 - p;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (normalUpperTail(mid) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
