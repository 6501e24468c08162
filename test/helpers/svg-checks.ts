// What a rendered Vega SVG shows: its text nodes and its data-mark groups.

/** Text content of every <text> node (entities decoded). */
export function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

/** Texts cut by the renderer: they end in an ellipsis. */
export function truncatedTexts(svg: string): string[] {
  return svgTexts(svg).filter((t) => t.includes('…') || t.includes('&#8230;'));
}

/** Data-mark groups (class role-mark): how many, and the names of those without a single drawn item. */
export function markSets(svg: string): { count: number; empty: string[] } {
  const groups = [...svg.matchAll(/<g class="(mark-[a-z]+ role-mark[^"]*)"[^>]*>(<\/g>)?/g)];
  return { count: groups.length, empty: groups.filter((g) => g[2] !== undefined).map((g) => g[1]!) };
}
