// The effect report's sentences and cells (pure): every phrase that states
// a result lives here as a named function, so the document builder only
// arranges them and a test can call each one on made-up rows.
import { fixed, grouped } from '../publish/format-number.js';
import type { MeasuredRow } from './effect-table-md.js';
import type { RowNote, RowRelation, SourceFigure } from './effect-row-notes.js';
import type { SideShape } from './side-shape.js';
import { floorText, type PracticalFloor } from './practical-floor.js';

export const maxInterpretationSentences = 5;

/** A P50 as the tables show it: ms with 0 decimals from 100 up, else 1; bytes in MiB. statistics.csv holds the same value. */
export function valueText(v: number | null, unit: string): string {
  if (v === null) return '-';
  if (unit === 'ms') return fixed(v, v >= 100 ? 0 : 1);
  if (unit === 'bytes') return `${fixed(v / 1048576, 1)} MiB`;
  return fixed(v, Math.abs(v) >= 100 ? 0 : 2);
}

export const ratioText = (v: number): string => fixed(v, 2);

/** One launch's value in a phrase: ms with thousands grouped from 1,000 up, else as the tables show it. */
const launchText = (v: number, unit: string): string => (unit === 'ms' && v >= 1000 ? grouped(v) : valueText(v, unit));
const unitSuffix = (unit: string): string => (unit === 'bytes' ? '' : ` ${unit}`);
const and = (xs: readonly string[]): string => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** "far out 81,742 and 9,773 ms (session 1)": a side's far-out launches, farthest first, with their sessions; null when none. */
export function farOutText(shape: SideShape, unit: string): string | null {
  if (shape.farOut.length === 0) return null;
  const sessions = [...new Set(shape.farOut.map((l) => l.session))].sort((x, y) => x - y);
  return (
    `far out ${and(shape.farOut.map((l) => launchText(l.value, unit)))}${unitSuffix(unit)} ` +
    `(${sessions.length === 1 ? 'session' : 'sessions'} ${and(sessions.map(String))})`
  );
}

/** "2 clusters: 13 at 453–506, 8 at 566–1,189 ms": the cluster rule's groups of a side that split; null when it did not. */
export function clustersText(shape: SideShape, unit: string): string | null {
  if (!shape.split) return null;
  const range = (g: SideShape['groups'][number]): string =>
    g.min === g.max ? launchText(g.min, unit) : `${launchText(g.min, unit)}–${launchText(g.max, unit)}`;
  return `${shape.groups.length} clusters: ${shape.groups.map((g) => `${g.n} at ${range(g)}`).join(', ')}${unitSuffix(unit)}`;
}

/**
 * The shape of a row's sides in one short phrase, for the summary beside its P50s:
 * "before: far out 81,742 and 9,773 ms (session 1)"; a side that splits gives its
 * clusters. null when neither side has a far-out launch or splits (or effects.json has no shapes).
 */
export function shapePhrase(m: MeasuredRow): string | null {
  const shape = m.cell.shape;
  if (!shape) return null;
  const parts = (['before', 'after'] as const).flatMap((side) => {
    const said = [farOutText(shape[side], m.row.unit), clustersText(shape[side], m.row.unit)].filter((x): x is string => x !== null);
    return said.length ? [`${side}: ${said.join('; ')}`] : [];
  });
  return parts.length ? parts.join('; ') : null;
}

/** "before: 2 far out": the same shape counted, for a table whose numbers the summary's phrase already names; null when plain. */
export function shapeCount(m: MeasuredRow): string | null {
  const shape = m.cell.shape;
  if (!shape) return null;
  const parts = (['before', 'after'] as const).flatMap((side) => {
    const s = shape[side];
    const said = [s.farOut.length ? `${s.farOut.length} far out` : null, s.split ? `${s.groups.length} clusters` : null].filter(Boolean);
    return said.length ? [`${side}: ${said.join(', ')}`] : [];
  });
  return parts.length ? parts.join('; ') : null;
}

/**
 * The source's own magnitude beside this run's (report.rows.<id>.source_figure): "696 → 138 ms, ×0.20"
 * when the source gives both sides, "after 226 ms" when only one, else its words; "-" without one.
 */
export function sourceFigureCell(figure: SourceFigure | null, unit: string): string {
  if (!figure) return '-';
  const { before, after, text } = figure;
  // as the source gives them: no decimals added, none taken away
  const v = (x: number): string => (unit === 'bytes' ? valueText(x, unit) : String(x));
  if (before !== null && after !== null) return `${v(before)} → ${v(after)}${unitSuffix(unit)}${before > 0 ? `, ×${ratioText(after / before)}` : ''}`;
  const one = before !== null ? `before ${v(before)}${unitSuffix(unit)}` : after !== null ? `after ${v(after)}${unitSuffix(unit)}` : null;
  return [one, text].filter(Boolean).join('; ') || '-';
}

export function beforeAfterCell(m: MeasuredRow): string {
  const c = m.cell;
  const unit = m.row.unit === 'bytes' ? '' : ` ${m.row.unit}`;
  return `${valueText(c.p50Before, m.row.unit)} → ${valueText(c.p50After, m.row.unit)}${unit}`;
}

/** "×0.75 [0.52, 0.82]": the after/before ratio of medians with its two-level interval (differences.csv median_ratio). */
export function ratioCell(m: MeasuredRow): string {
  const c = m.cell.comparison;
  if (c.observed === null || c.low === null || c.high === null) return '-';
  return `×${ratioText(c.observed)} [${ratioText(c.low)}, ${ratioText(c.high)}]`;
}

export const relationText: Record<RowRelation, string> = { same: 'same', proxy: 'proxy', different: 'different question' };

/** The runtime a row's launches ran on, from what it requires: gVisor where it needs runsc, else a crun container; '-' for neither. */
export function runtimeLabel(requires: readonly string[]): string {
  return requires.includes('runsc') ? 'gVisor (runsc)' : requires.includes('crun') ? 'crun container' : '-';
}

export type RowVerdict = 'kept' | 'too small to keep' | 'dropped' | 'control failed' | 'control held' | 'control undecided';

/**
 * The verdict of a measured row. A negative control fails when the one direction rule establishes a
 * direction of any size (detected, or size uncertain), holds only when both intervals lie inside the
 * practical floor around 1 (equivalent: "not detected" is never "no difference"), and is undecided otherwise.
 */
export function rowVerdict(m: MeasuredRow, note: RowNote): RowVerdict {
  if (note.control) {
    // effects.json written before the direction rule has no direction: judge it on detection, as it was.
    const direction = m.verdict.direction === undefined ? (m.verdict.detected ? 'lower' : null) : m.verdict.direction;
    if (direction !== null) return 'control failed';
    return m.verdict.equivalent === undefined ? 'control held' : m.verdict.equivalent ? 'control held' : 'control undecided';
  }
  return m.verdict.outcome === 'kept' ? 'kept' : m.verdict.outcome === 'too-small' ? 'too small to keep' : 'dropped';
}

export function verdictCell(m: MeasuredRow, note: RowNote): string {
  const v = rowVerdict(m, note);
  if (v === 'control failed') return '**control failed**';
  if (v === 'dropped') {
    const why = m.verdict.reasons.join(' ');
    if (why.startsWith('after is worse')) return 'dropped (worse)';
    if (why.startsWith('the sessions disagree')) return 'dropped (sessions disagree in direction)';
    if (why.startsWith('P90 got worse')) return 'dropped (P90 worse)';
    return 'dropped (not detected)';
  }
  const size = m.verdict.sizeCaveat ? `; lower in every session, ${m.verdict.sizeCaveat}` : '';
  // "kept" only where the row tests the source's optimisation itself; a proxy or another question only shows an effect
  if (v === 'kept' && note.relation !== 'same') return `effect shown (${note.relation === 'proxy' ? 'proxy' : 'a different question'}${size})`;
  if (v === 'too small to keep' && note.relation !== 'same') return `too small (${note.relation === 'proxy' ? 'proxy' : 'a different question'}${size})`;
  return size ? `${v} (${size.slice(2)})` : v;
}

/**
 * Why a negative control is undecided, in what its intervals show: the rule establishes no direction, but
 * where one interval (or every session alone) already excludes 1, the sentence says so instead of
 * calling it "no direction".
 */
export function controlUndecided(m: MeasuredRow, floor: PracticalFloor): string {
  const c = m.cell.comparison;
  const band = `±${(floor.minRatioChange * 100).toFixed(0)}%`;
  const excludes = (low: number | null, high: number | null): boolean => low !== null && high !== null && (low > 1 || high < 1);
  const twoLevel = excludes(c.low, c.high);
  const between = excludes(c.sessionLow, c.sessionHigh);
  const alone = c.findings.sessionsAloneExcluding;
  const leaning = twoLevel || between || alone > 0;
  const what = leaning
    ? `the rule establishes no direction, though ${[twoLevel ? 'its two-level interval' : null, between ? 'its between-session interval' : null]
        .filter(Boolean)
        .join(
          ' and ',
        )}${twoLevel || between ? ' excludes 1' : ''}${alone > 0 ? `${twoLevel || between ? ' and ' : ''}${alone} of ${c.sessions} sessions alone exclude it on the same side` : ''}`
    : 'the rule establishes no direction';
  return `The negative control \`${m.row.id}\` is undecided: ${what}; its intervals reach beyond ${band}, so it cannot vouch for the rows.`;
}

const ids = (rows: readonly MeasuredRow[]): string => rows.map((m) => `\`${m.row.id}\``).join(', ');

/** The interpretation: at most five sentences, no number the tables already give. */
export function interpretation(rows: readonly MeasuredRow[], noteOf: (id: string) => RowNote, floor: PracticalFloor): string[] {
  const by = (v: RowVerdict): MeasuredRow[] => rows.filter((m) => rowVerdict(m, noteOf(m.row.id)) === v);
  const kept = by('kept').filter((m) => noteOf(m.row.id).relation === 'same');
  const proxies = by('kept').filter((m) => noteOf(m.row.id).relation === 'proxy');
  const small = by('too small to keep');
  const failed = by('control failed');
  const different = rows.filter((m) => noteOf(m.row.id).relation === 'different' && !noteOf(m.row.id).control);
  const out: string[] = [];
  if (kept.length) out.push(`Worth keeping here: ${ids(kept)}.`);
  else out.push('No row that tests a source optimisation itself shows an effect worth keeping here.');
  if (proxies.length)
    out.push(
      `${ids(proxies)} show${proxies.length === 1 ? 's' : ''} an effect as a proxy: ${proxies.length === 1 ? 'it measures' : 'each measures'} a stand-in, not the optimisation itself.`,
    );
  if (small.length) out.push(`${ids(small)} ${small.length === 1 ? 'is' : 'are'} detected but too small to keep: the floor is ${floorText(floor)}.`);
  for (const m of failed.slice(0, 1))
    out.push(`The negative control \`${m.row.id}\` failed: it shows an effect where none was expected, so its two sides differ in more than the change.`);
  for (const m of by('control undecided').slice(0, 1)) out.push(controlUndecided(m, floor));
  for (const m of different.slice(0, 1)) {
    const why = noteOf(m.row.id).why ?? 'see the row detail';
    out.push(`\`${m.row.id}\` answers a different question than its source row: ${why.charAt(0).toLowerCase()}${why.slice(1).replace(/\.?$/, '.')}`);
  }
  out.push('Most source rows cannot run on this host; the reasons follow, each stated once.');
  return out.slice(0, maxInterpretationSentences);
}

/**
 * When the launches ran, from the samples themselves (started_at of every launch, warmup included):
 * the first and last start in UTC and the span between them; null without timestamps.
 */
export function launchSpanSentence(startedAt: readonly (string | null | undefined)[]): string | null {
  const t = startedAt.map((s) => (s ? Date.parse(s) : NaN)).filter((x) => Number.isFinite(x));
  if (t.length < 2) return null;
  const first = Math.min(...t);
  const last = Math.max(...t);
  const utc = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
  const span = Math.round((last - first) / 1000);
  const minutes = Math.floor(span / 60);
  return `Its ${t.length} launches started between ${utc(first)} and ${utc(last).slice(11)} UTC (${minutes ? `${minutes} min ` : ''}${span % 60} s, from samples.csv's started_at).`;
}
