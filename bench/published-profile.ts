// The variance profiles of the published default run's differences
// (reports/lazy-startup/samples.csv and differences.csv): one profile per
// difference of Ready (cohort, state, a, b), estimated by profileOfPair, and
// their element-wise median, the "typical" profile the coverage table uses.
// Also the profile with the largest session share of its difference's variance.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvRecords } from '../harness/db/csv-records.js';
import { median } from '../harness/stats/quantile.js';
import { differenceVariances, profileOfPair, type PairedValue, type VarianceProfile } from '../harness/stats/simulation-profile.js';
import { clopperPearson } from '../harness/stats/clopper-pearson.js';

export interface NamedProfile {
  id: string;
  profile: VarianceProfile;
}

function table(file: string): Record<string, string>[] {
  const [head, ...rows] = csvRecords(readFileSync(file, 'utf8'));
  return rows.map((r) => Object.fromEntries(head!.fields.map((h, i) => [h, r.fields[i] ?? ''])));
}

export function publishedProfiles(reportDir: string): NamedProfile[] {
  const samples = table(join(reportDir, 'samples.csv')).filter((r) => r['phase'] === 'formal' && r['ok'] === 'true');
  const diffs = table(join(reportDir, 'differences.csv')).filter((r) => r['kind'] === 'median_difference' && r['metric'] === 'ready');
  const out: NamedProfile[] = [];
  for (const d of diffs) {
    const cell = (path: string): Map<string, number> =>
      new Map(
        samples
          .filter((s) => s['cohort'] === d['cohort'] && s['state'] === d['state'] && s['path'] === path)
          .map((s) => [`${s['session']}|${s['round']}`, Number(s['ready_ms'])]),
      );
    const a = cell(d['a']!);
    const b = cell(d['b']!);
    const pairs: PairedValue[] = [...a.entries()].flatMap(([k, va]) => {
      const vb = b.get(k);
      const [session, round] = k.split('|').map(Number);
      return vb === undefined ? [] : [{ session: session!, round: round!, a: va, b: vb }];
    });
    const p = profileOfPair(pairs, median(pairs.map((x) => x.b)));
    if (p) out.push({ id: `${d['cohort']} ${d['state']} ${d['a']} - ${d['b']}`, profile: p });
  }
  return out;
}

/** Element-wise median of the profiles (median of b: 1000 ms, effects are relative). */
export function typicalProfile(profiles: readonly NamedProfile[]): VarianceProfile {
  const m = (f: (p: VarianceProfile) => number): number => median(profiles.map((x) => f(x.profile)));
  return {
    medianMs: 1000,
    sessionSd: m((p) => p.sessionSd),
    roundSd: m((p) => p.roundSd),
    sessionCorr: m((p) => p.sessionCorr),
    roundCorr: m((p) => p.roundCorr),
  };
}

/** The profile whose difference has the largest share of its variance between sessions. */
export function sessionHeavyProfile(profiles: readonly NamedProfile[]): NamedProfile {
  const share = (p: VarianceProfile): number => {
    const v = differenceVariances(p);
    return v.sessionVar / (v.sessionVar + v.roundVar || 1);
  };
  return [...profiles].sort((x, y) => share(y.profile) - share(x.profile))[0]!;
}

/** The two profiles every calibration bench simulates: the typical one and the session-heavy one (its median set to 1000 ms). */
export function benchProfiles(reportDir: string): { id: string; profile: VarianceProfile }[] {
  const profiles = publishedProfiles(reportDir);
  const heavy = sessionHeavyProfile(profiles);
  return [
    { id: `typical (element-wise median of ${profiles.length} Ready differences)`, profile: typicalProfile(profiles) },
    { id: `session-heavy (${heavy.id})`, profile: { ...heavy.profile, medianMs: 1000 } },
  ];
}

/** "4.7 [4.2, 5.3]": a rate in percent with its Clopper–Pearson interval. */
export function rateWithInterval(k: number, n: number): string {
  const pct = (x: number): string => (100 * x).toFixed(1);
  const c = clopperPearson(k, n);
  return `${pct(c.rate)} [${pct(c.low)}, ${pct(c.high)}]`;
}
