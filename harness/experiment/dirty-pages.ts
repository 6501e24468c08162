// Pure: Dirty and Writeback of /proc/meminfo, in kB.

export function dirtyPagesKb(meminfo: string): { dirtyKb: number; writebackKb: number } {
  const field = (name: string): number => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(meminfo);
    if (!m) throw new Error(`/proc/meminfo has no ${name} line`);
    return Number(m[1]);
  };
  return { dirtyKb: field('Dirty'), writebackKb: field('Writeback') };
}
