// Types of the Slurm executor: what to run, what it reports while running,
// and what each job's outcome is, as data.

/** One unit of work: one Slurm job. */
export interface SlurmJobSpec {
  /** Job name and file stem of its script, stdout and stderr: letters, digits, '.', '_', '-'. */
  name: string;
  /** The command, run with exec (no shell). SLURMD_NODENAME in its environment names the node. */
  argv: string[];
  /** Overrides the executor's nodelist for this job (sbatch --nodelist). */
  nodelist?: string;
  /** Working folder on the node (sbatch --chdir); it must exist there. */
  cwd?: string;
  /** Extra environment for the command. */
  env?: Record<string, string>;
  /** The node to itself while the job runs (sbatch --exclusive): no other job shares its host. */
  exclusive?: boolean;
}

export interface SlurmExecutorOptions {
  /** slurm.conf to use (exported as SLURM_CONF to sbatch, squeue, scontrol, scancel); default: the caller's SLURM_CONF or the system's. */
  slurmConf?: string;
  partition?: string;
  /** sbatch --constraint: node features, e.g. "ssd&x86". */
  constraint?: string;
  /** sbatch --nodelist for every job without its own. */
  nodelist?: string;
  /** Folder for each job's script, stdout, stderr and start stamp; nodes must be able to write it. */
  outputDir: string;
  /** Poll interval of squeue (default 250 ms). */
  pollMs?: number;
  /** How long the controller may stay unreachable before the run fails (default 120 000 ms). */
  controllerTimeoutMs?: number;
  /** Called whenever a job's state or node changes. */
  onProgress?: (p: SlurmJobProgress) => void;
  /** Aborting cancels every job not yet ended (scancel) and returns their outcomes. */
  signal?: AbortSignal;
}

export type SlurmJobState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';
export type SlurmFinalState = Extract<SlurmJobState, 'done' | 'failed' | 'cancelled'>;

export interface SlurmJobProgress {
  name: string;
  jobId: string;
  state: SlurmJobState;
  /** Slurm's own state word, e.g. PENDING, RUNNING, COMPLETED, NODE_FAIL. */
  slurmState: string;
  node: string | null;
  /** Slurm's reason, e.g. Priority, Resources, NonZeroExitCode. */
  reason: string | null;
}

export interface SlurmJobOutcome {
  name: string;
  /** null when the job was never submitted (aborted before its turn). */
  jobId: string | null;
  state: SlurmFinalState;
  slurmState: string;
  node: string | null;
  /** The command's exit code; null when it never ran or was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended it (e.g. 15 after scancel), else null. */
  signal: number | null;
  reason: string | null;
  /** Wall clock (epoch ms) just before sbatch was called. */
  submittedAtMs: number | null;
  /** Wall clock (epoch ms) when the job's script began on its node; null when it never started. */
  startedAtMs: number | null;
  /** startedAtMs - submittedAtMs: scheduling and dispatch overhead of this job. */
  startDelayMs: number | null;
  /** 'job-stamp': the job's own start stamp (ms resolution; across hosts it includes clock offset); 'slurm-seconds': Slurm's StartTime (whole seconds). */
  startDelaySource: 'job-stamp' | 'slurm-seconds' | null;
  stdoutFile: string;
  stderrFile: string;
}
