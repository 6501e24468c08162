# Independent simulation of the plan check (harness/comparison/plan-check.ts)
# in NumPy and SciPy: per comparison, session means of the log ratio drawn
# N(theta, sessionVar + roundVar / rounds); the sequential rule looks at the
# given sessions with the given t boundaries (the rule's definition) against
# the band; the fixed design is SciPy's between-session t at 95%. Reads the
# plan and profiles as JSON on stdin, prints the rates as JSON.
import json
import sys

import numpy as np
from scipy import stats

spec = json.load(sys.stdin)
rng = np.random.default_rng(20261206)
runs = spec["runs"]
looks = spec["looks"]
crit = dict(zip(looks, spec["criticalT"]))
rounds = spec["rounds"]


def sequential(theta, sd, delta):
    z = theta + sd * rng.standard_normal((runs, looks[-1]))
    decided = np.zeros(runs, dtype=bool)
    verdict = np.zeros(runs, dtype=int)  # -1 lower, +1 higher, 2 equivalent
    sessions = np.full(runs, looks[-1], dtype=float)
    for k in looks:
        x = z[:, :k]
        m = x.mean(axis=1)
        h = crit[k] * x.std(axis=1, ddof=1) / np.sqrt(k)
        lo, hi = np.expm1(m - h), np.expm1(m + h)
        v = np.where(hi < 0, -1, np.where(lo > 0, 1, np.where((lo > -delta) & (hi < delta), 2, 0)))
        new = ~decided & (v != 0)
        verdict[new] = v[new]
        sessions[new] = k
        decided |= new
    return verdict, sessions


def fixed(theta, sd, k):
    z = theta + sd * rng.standard_normal((runs, k))
    m = z.mean(axis=1)
    h = stats.t.ppf(0.975, k - 1) * z.std(axis=1, ddof=1) / np.sqrt(k)
    return float(np.mean(m - h > 0))


out = []
for p in spec["profiles"]:
    sd = np.sqrt(p["sessionVar"] + p["roundVar"] / rounds)
    delta = p["delta"]
    v0, _ = sequential(0.0, sd, delta)
    row = {"id": p["id"], "error": float(np.mean(np.abs(v0) == 1)), "power": [], "fixed": []}
    for i, factor in enumerate((1, 2)):
        theta = np.log1p(factor * delta)
        v, _ = sequential(theta, sd, delta)
        row["power"].append(float(np.mean(v == 1)))
        row["fixed"].append(fixed(theta, sd, p["fixedSessions"][i]))
    out.append(row)
print(json.dumps(out))
