// Pure types of the cross-key config rules (cross-rules.ts and the rule
// modules it runs): what a rule sees and what it finds.

/** One problem a rule found, at a place of the pipeline file. */
export interface Finding {
  path: (string | number)[];
  message: string;
  hint: string;
}

/** Where the pipeline is and which keys its file writes (the schema fills in defaults, so `value` alone cannot tell). */
export interface RuleContext {
  pipelineDir: string;
  written: (path: readonly (string | number)[]) => boolean;
  /** Whether a file or folder exists (the only file-system question a rule asks; the config cache records the answers). */
  exists: (path: string) => boolean;
}

export type Rule = (value: Record<string, unknown>, knownKinds: ReadonlySet<string>, ctx: RuleContext) => Finding[];
