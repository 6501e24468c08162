// REPRODUCE.md of every experiment, as a document (rendered by the same
// Markdown renderer as the report): what the machine needs (from the
// requirements the experiment declares), the commands, how long the last run
// took and how much disk it used, what counts as reproduced, and the digests,
// versions and pins to compare against. Each experiment gives its own parts;
// a part it does not have is left out, never filled with another's words. Pure.
import { code, list, paragraph, section, type Block, type ReportDocument, type Section } from '../document/document-model.js';
import type { Requirement } from '../contract/requirement.js';

export interface ReproduceStage {
  id: string;
  kind: string;
  outputDigest: string;
}

export interface ReproduceParts {
  /** experiment.name */
  name: string;
  /** The pipeline file relative to its folder. */
  pipelineFileName: string;
  /** The pipeline file lies outside the benchgraph checkout: the commands run benchgraph's CLI in the experiment's own folder. */
  outsideCheckout?: boolean;
  /** What the machine needs, each a list item; from machineNeeds() and the experiment's own. */
  needs: readonly string[];
  /** Does the run need root (then the commands say so)? */
  root: boolean;
  /** Paragraphs after the commands (what a command does, how to re-analyse). */
  commandNotes: readonly string[];
  /** Extra command lines after `run` (e.g. audit). */
  extraCommands?: readonly string[];
  /** How long and how much disk: blocks, or none when nothing was recorded. */
  howLong: readonly Block[];
  /** What counts as reproduced. */
  reproduced: string | null;
  stages: readonly ReproduceStage[];
  samplesSha256: string | null;
  commit: { sha: string; dirty: boolean } | null;
  /** Version and pin lines, or null when no pin stage ran. */
  versions: readonly string[] | null;
  /** The experiment's own sections (design, analysis rules). */
  more?: readonly Section[];
}

/** The requirement as a need: its part, and how to meet it when known. */
export const needLine = (r: Pick<Requirement, 'part' | 'remedy'>): string => `${r.part}${r.remedy ? ` (${r.remedy})` : ''}`;

/**
 * How the commands name benchgraph: from its checkout, or, for a pipeline in
 * a folder of its own (a user's experiment), the checkout's CLI run in that
 * folder with the checkout at $BENCHGRAPH. Callers build their notes and extra
 * commands with the same names.
 */
export function commandNames(outsideCheckout: boolean): { cli: string; inText: string; setup: string } {
  // the code block quotes the path; prose shows it as inline code without quotes
  return outsideCheckout
    ? { cli: '"$BENCHGRAPH/bin/pipeline.js"', inText: '$BENCHGRAPH/bin/pipeline.js', setup: '(cd "$BENCHGRAPH" && ./setup.sh)' }
    : { cli: './bin/pipeline.js', inText: './bin/pipeline.js', setup: './setup.sh' };
}

/** The commands that rerun this experiment: in the benchgraph checkout, or, for a pipeline of its own folder, there with the checkout's CLI. */
function commands(p: ReproduceParts): Block[] {
  const file = p.pipelineFileName;
  const root = p.root ? ', as root' : '';
  const { cli, setup } = commandNames(p.outsideCheckout === true);
  return [
    paragraph(
      p.outsideCheckout
        ? `This experiment's pipeline file lies in a folder of its own, not in the benchgraph checkout. With benchgraph checked out at the commit below in \`$BENCHGRAPH\`, in the folder that holds \`${file}\` (the one above reports/${p.name}/)${root}:`
        : `In a checkout of benchgraph at the commit below${root}:`,
    ),
    code([setup, `${cli} run -f ${file}`, ...(p.extraCommands ?? [])].join('\n')),
    ...p.commandNotes.map(paragraph),
  ];
}

export function reproduceDocument(p: ReproduceParts): ReportDocument {
  const file = p.pipelineFileName;
  return {
    title: `Reproducing "${p.name}"`,
    opening: [
      paragraph(
        `This folder (reports/${p.name}/) was produced by benchgraph from \`${file}\`. ` +
          'This manual is all you need to run the experiment again and judge whether the result held.',
      ),
    ],
    sections: [
      ...section('What the machine needs', [list([...p.needs, 'Node 20 (`node --version`).'])]),
      ...section('Commands', commands(p)),
      ...section('How long and how much disk', [...p.howLong]),
      ...section('What counts as reproduced', [p.reproduced ? paragraph(p.reproduced) : null]),
      ...section('Stages and output digests', [
        list(p.stages.length ? p.stages.map((s) => `\`${s.id}\` (${s.kind}): ${s.outputDigest}`) : ['(no upstream stage)']),
        p.samplesSha256 ? paragraph(`Raw samples: samples.duckdb sha256 ${p.samplesSha256} (its rows are samples.csv).`) : null,
        paragraph(
          p.commit
            ? `benchgraph commit: ${p.commit.sha}${p.commit.dirty ? ' (with uncommitted changes: the exact code is not recoverable from the commit alone)' : ''}.`
            : 'benchgraph commit: not recorded.',
        ),
      ]),
      ...section('Versions and pins', [
        p.versions ? list(p.versions) : paragraph('No pin stage ran: artifacts, tools and host versions are not pinned by this pipeline.'),
      ]),
      ...(p.more ?? []),
    ],
    appendix: [],
  };
}
