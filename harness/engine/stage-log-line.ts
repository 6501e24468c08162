// A stage's log line as the runner prints it after its "  <id>: " prefix.
// Some modules name their stage themselves ("pin: …", "prepare: …"); that
// leading name is dropped so the line does not read "pin: pin: …". The
// engine does it, not the modules, because those modules are part of the
// code digest of stages with long frozen runs behind them: a wording change
// there would make those runs stale.

export function withoutStagePrefix(line: string, id: string, kind: string): string {
  for (const name of [id, kind]) {
    if (line.startsWith(`${name}: `)) return line.slice(name.length + 2);
  }
  return line;
}
