// The moment a command's start-up ends and its long work begins (`pipeline
// run`: right before the first stage executes). The CLI loader
// (cli/cli-bundle.ts) writes V8's code cache of the bundle there, so the
// cache holds what start-up compiled (the config, the plan, the checks of a
// no-op rerun) and not the code of every stage a real run went on to compile,
// which each later start would deserialise for nothing. The loader runs as a
// native module and the engine inside the bundle, so the hook is kept on
// globalThis, under a registered symbol, not in a module variable.
const HOOK = Symbol.for('benchgraph.startupCheckpoint');

type Slot = { [HOOK]?: () => void };

/** The loader's hook, called at most once by startupDone(). */
export function onStartupDone(hook: () => void): void {
  (globalThis as Slot)[HOOK] = hook;
}

/** Start-up is over: runs the hook, if any, once. */
export function startupDone(): void {
  const slot = globalThis as Slot;
  const hook = slot[HOOK];
  delete slot[HOOK];
  hook?.();
}
