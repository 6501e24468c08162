// The moment a command's start-up ends and its long work begins (`pipeline
// run`: right before the first stage executes). The CLI loader
// (cli/cli-bundle.cts) writes there V8's code cache of the bundle and the
// bundle's start-up subset, so both hold what start-up used (the config, the
// plan, the checks of a no-op rerun) and not every stage a real run went on
// to run, which each later start would read for nothing. The loader runs as
// a native module and the engine inside the bundle, so the hooks are kept on
// globalThis, under a registered symbol, not in a module variable.
const HOOK = Symbol.for('benchgraph.startupCheckpoint');
const OVER = Symbol.for('benchgraph.startupCheckpointPassed');

type Slot = { [HOOK]?: (() => void)[]; [OVER]?: true };

/** Whether startupDone() has run in this process. */
export function startupIsOver(): boolean {
  return (globalThis as Slot)[OVER] === true;
}

/** A hook of the loader, called at most once, by startupDone(). */
export function onStartupDone(hook: () => void): void {
  ((globalThis as Slot)[HOOK] ??= []).push(hook);
}

/** Start-up is over: runs the hooks, if any, once each, in the order they came. */
export function startupDone(): void {
  const slot = globalThis as Slot;
  slot[OVER] = true;
  const hooks = slot[HOOK] ?? [];
  delete slot[HOOK];
  for (const hook of hooks) hook();
}
