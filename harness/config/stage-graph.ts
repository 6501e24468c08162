// Pure graph helpers over stage declarations.

export interface GraphNode {
  id: string;
  needs: readonly string[];
}

/** A cycle as a list of ids, or null. */
export function findCycle(nodes: readonly GraphNode[]): string[] | null {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    const s = state.get(id);
    if (s === 'done') return null;
    if (s === 'visiting') return stack.slice(stack.indexOf(id));
    state.set(id, 'visiting');
    stack.push(id);
    for (const n of byId.get(id)?.needs ?? []) {
      const c = visit(n);
      if (c) return c;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const n of nodes) {
    const c = visit(n.id);
    if (c) return c;
  }
  return null;
}

/** Ids in an order where every stage comes after the stages it needs (stable: file order otherwise). */
export function topoOrder(nodes: readonly GraphNode[]): string[] {
  const done = new Set<string>();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out: string[] = [];
  const visit = (id: string): void => {
    if (done.has(id)) return;
    done.add(id);
    for (const n of byId.get(id)?.needs ?? []) visit(n);
    out.push(id);
  };
  for (const n of nodes) visit(n.id);
  return out;
}

/** Every stage `id` needs, directly or not. */
export function ancestors(nodes: readonly GraphNode[], id: string): Set<string> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Set<string>();
  const walk = (x: string): void => {
    for (const n of byId.get(x)?.needs ?? []) {
      if (!out.has(n)) {
        out.add(n);
        walk(n);
      }
    }
  };
  walk(id);
  return out;
}

/** Every stage that needs `id`, directly or not. */
export function descendants(nodes: readonly GraphNode[], id: string): Set<string> {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of nodes) {
      if (out.has(n.id)) continue;
      if (n.needs.some((x) => x === id || out.has(x))) {
        out.add(n.id);
        grew = true;
      }
    }
  }
  return out;
}
