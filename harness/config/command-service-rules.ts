// Cross-key rules of services of kind `command`: an argv to start, one
// readiness probe, `{port}` when bytes are counted or a TCP probe is used, a
// prepare command when the data comes from the prepare stage, and no option
// of another kind (or of this kind on another).
import type { Finding, Rule } from './rule-types.js';

const COMMAND_KEYS = ['command', 'prepare', 'ready', 'content_path'];
const PROBES = ['tcp', 'http', 'file', 'socket', 'command'];

const mentions = (argv: unknown, text: string): boolean => Array.isArray(argv) && argv.some((a) => String(a).includes(text));

export const commandServiceRules: Rule = (value, _kinds, ctx) => {
  const services = (value['services'] ?? {}) as Record<string, { kind?: string; count_bytes?: boolean; data_from?: string; with?: Record<string, unknown> }>;
  const out: Finding[] = [];
  for (const [id, svc] of Object.entries(services)) {
    if (!svc) continue;
    const w = svc.with ?? {};
    const at = (...p: string[]) => ['services', id, ...p];
    if (svc.kind !== 'command') {
      for (const k of COMMAND_KEYS)
        if (w[k] !== undefined && ctx.written(at('with', k)))
          out.push({ path: at('with', k), message: `with.${k} belongs to kind command, not ${svc.kind}`, hint: 'remove it, or set kind: command' });
      continue;
    }
    if (!Array.isArray(w['command']) || w['command'].length === 0) {
      out.push({
        path: at('with'),
        message: 'kind command needs with.command, the argv that starts the daemon',
        hint: "e.g. command: [python3, -m, http.server, '{port}', --bind, 127.0.0.1]",
      });
      continue;
    }
    const ready = (w['ready'] ?? {}) as Record<string, unknown>;
    const probes = PROBES.filter((p) => ready[p] !== undefined);
    if (probes.length > 1)
      out.push({
        path: at('with', 'ready'),
        message: `one readiness probe, not ${probes.length} (${probes.join(', ')})`,
        hint: `keep one of: ${PROBES.join(', ')}`,
      });
    const usesPort = mentions(w['command'], '{port}');
    if ((probes.length === 0 || probes.includes('tcp')) && !usesPort)
      out.push({
        path: at('with', probes.length ? 'ready' : 'command'),
        message: probes.length ? 'ready.tcp needs {port} in with.command' : 'no readiness probe, and with.command has no {port} for the default TCP probe',
        hint: `add ready: with one of ${PROBES.join(', ')}, or pass '{port}' to the daemon`,
      });
    if (probes.includes('http') && !usesPort)
      out.push({
        path: at('with', 'ready', 'http'),
        message: 'ready.http needs {port} in with.command',
        hint: "pass '{port}' to the daemon so it listens where the probe asks",
      });
    if (svc.count_bytes && !usesPort)
      out.push({
        path: at('count_bytes'),
        message: 'count_bytes needs a TCP port: {port} in with.command',
        hint: "pass '{port}' to the daemon, or remove count_bytes",
      });
    if (svc.data_from !== undefined && !Array.isArray(w['prepare']))
      out.push({
        path: at('data_from'),
        message: 'data_from needs with.prepare, the command that fills {dir} in the prepare stage',
        hint: "e.g. prepare: [sh, -c, 'cp -r ./site/. {dir}/']",
      });
    if (Array.isArray(w['prepare']) && svc.data_from === undefined)
      out.push({ path: at('with', 'prepare'), message: 'with.prepare runs only in the prepare stage named by data_from', hint: 'add data_from: prepare' });
    if (typeof w['content_path'] === 'string') {
      try {
        new RegExp(w['content_path']);
      } catch (e) {
        out.push({
          path: at('with', 'content_path'),
          message: `not a regular expression: ${(e as Error).message}`,
          hint: 'write a JavaScript regular expression',
        });
      }
    }
  }
  return out;
};
