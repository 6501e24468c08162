// One small module for errors. A UserError is the user's to fix: it names the
// place (file:line:col, key or flag) and a remedy, and the CLI prints it as one
// line with exit code 2. A CheckFailed is a failed check (audit, verify, a stage
// that failed): exit code 1. Anything else is a bug and gets a stack trace.

export interface ErrorPlace {
  file?: string;
  line?: number;
  col?: number;
  key?: string;
}

export class UserError extends Error {
  readonly place: ErrorPlace;
  readonly hint: string | undefined;
  constructor(message: string, place: ErrorPlace = {}, hint?: string) {
    super(message);
    this.name = 'UserError';
    this.place = place;
    this.hint = hint;
  }

  /** `FILE:LINE:COL: key.path: what is wrong (hint)` */
  format(): string {
    const where: string[] = [];
    if (this.place.file) {
      let loc = this.place.file;
      if (this.place.line !== undefined) loc += `:${this.place.line}`;
      if (this.place.line !== undefined && this.place.col !== undefined) loc += `:${this.place.col}`;
      where.push(loc);
    }
    if (this.place.key) where.push(this.place.key);
    const head = where.length ? where.join(': ') + ': ' : '';
    return `${head}${this.message}${this.hint ? ` (${this.hint})` : ''}`;
  }
}

export class CheckFailed extends Error {
  readonly details: string[];
  constructor(message: string, details: string[] = []) {
    super(message);
    this.name = 'CheckFailed';
    this.details = details;
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/** The run was stopped by a signal (SIGINT/SIGTERM): exit code 130, no trace. */
export class Interrupted extends Error {
  constructor(readonly signalName: string) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interrupted';
  }
}

/** Several user errors found together (config rules): one line each, up to a limit. */
export class UserErrors extends UserError {
  constructor(
    readonly errors: readonly UserError[],
    readonly limit: number,
  ) {
    super(`${errors.length} problems`, errors[0]!.place, errors[0]!.hint);
    this.name = 'UserErrors';
  }

  override format(): string {
    const shown = this.errors.slice(0, this.limit).map((e) => e.format());
    if (this.errors.length > this.limit) shown.push(`… and ${this.errors.length - this.limit} more`);
    return shown.join('\n');
  }
}
