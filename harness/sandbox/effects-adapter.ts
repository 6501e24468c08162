// The arm adapter of the effect-table experiment: a session sets each runnable
// row up afresh in its own folder (image root unpacked from the pinned tar,
// setup commands, their KEY=NUMBER facts kept per session), a visit is one
// side's launch (effect-arm.ts), and the folder is swept when the session
// leaves the row, on error and on signal.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StageContext } from '../contract/stage.js';
import { pinnedImageTar } from '../contract/exchange-files.js';
import type { EffectRow } from '../config/effects-section.js';
import { expandArgv } from '../experiment/command-template.js';
import { runHook } from '../experiment/run-hook.js';
import type { ExperimentAdapter } from '../experiment/sample-experiment.js';
import type { Launcher } from '../launch/launcher.js';
import { onCleanup } from '../process/cleanup.js';
import { hostName } from '../process/host-name.js';
import { projectRoot } from '../process/project-root.js';
import { EFFECT_CONDITION, EFFECT_ENV, visitEffectSide } from './effect-arm.js';
import { printedValues } from './printed-values.js';
import { openRowFolder, sandboxScriptsDir, type RowFolder } from './row-folder.js';

const run = promisify(execFile);

export const EFFECT_SIDES = ['before', 'after'] as const;

/** The arm adapter of the effect table: a session sets each row up afresh in its own folder, and a visit is one side's launch. */
export function effectsAdapter(ctx: StageContext, rows: readonly EffectRow[], launcher: Launcher, factsDir: string): ExperimentAdapter {
  const design = ctx.config.design;
  const timeoutMs = Math.round(design.timeout_s * 1000);
  return {
    units: rows.map((r) => r.id),
    // a row's folder and setup are made once a session (beginUnit): its rounds run in one block
    unitSetup: true,
    arms: EFFECT_SIDES,
    conditions: [EFFECT_CONDITION],
    ourFolders: ['/tmp/bg-fx-'],
    async openSession(session) {
      let open: { row: EffectRow; folder: RowFolder; values: Record<string, string>; stopLaunch: () => Promise<void> } | null = null;
      const closeRow = async (): Promise<void> => {
        if (!open) return;
        const o = open;
        open = null;
        await o.stopLaunch();
        await o.folder.close();
      };
      return {
        async beginUnit(unit) {
          const row = rows.find((r) => r.id === unit)!;
          const folder = openRowFolder(row.id);
          // Undos run last-registered first: on a signal the launch in flight is stopped before the row's folder is swept under it.
          const stopLaunch = onCleanup(`launch in flight of row ${row.id}`, async () => {
            if (ctx.signal.aborted) await launcher.close();
          });
          const values: Record<string, string> = {
            row_dir: folder.dir,
            sandbox: sandboxScriptsDir(),
            paths: join(projectRoot(), 'harness', 'paths'),
            image_root: join(folder.dir, 'rootfs'),
          };
          open = { row, folder, values, stopLaunch };
          ctx.log(`session ${session} ${row.id}: work folder ${folder.dir}`);
          if (row.image) {
            mkdirSync(values['image_root']!);
            await run(
              'tar',
              [
                '-xf',
                pinnedImageTar(ctx.inputs, row.image, { file: ctx.pipelineFile, stageId: ctx.id, key: `effects.rows.${row.id}.image` }),
                '-C',
                values['image_root']!,
              ],
              { signal: ctx.signal },
            );
          }
          const facts: Record<string, number> = {};
          for (const cmd of row.setup) {
            const r = await runHook(expandArgv(cmd, { ...values, marker: 'SETUP' }), EFFECT_ENV, folder.dir, timeoutMs);
            if (!r.ok) throw new Error(`row ${row.id}: setup failed: ${r.reason}`);
            Object.assign(facts, printedValues(r.output));
          }
          writeFileSync(join(factsDir, `S${String(session).padStart(4, '0')}-${row.id}.json`), JSON.stringify(facts) + '\n');
          ctx.log(`session ${session} ${row.id}: setup done ${JSON.stringify(facts)}`);
        },
        endUnit: closeRow,
        async visit(v) {
          const o = open!;
          return [
            await visitEffectSide(launcher, {
              experiment: ctx.config.experiment.name,
              row: o.row,
              side: v.arm as (typeof EFFECT_SIDES)[number],
              session: v.session,
              attempt: v.attempt,
              host: hostName(),
              phase: v.phase,
              round: v.round,
              position: v.position,
              previous: v.previous,
              values: o.values,
              cwd: o.folder.dir,
              timeoutMs,
              settle: design.settle,
              signal: ctx.signal,
            }),
          ];
        },
        close: closeRow,
      };
    },
  };
}
