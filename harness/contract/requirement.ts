// One part of a host an experiment needs (a binary, a kernel file system, root,
// a runsc flag), checked on the real host: `pipeline doctor` prints it, a
// sample stage refuses to start without it, requirements.json records what a
// run checked, and REPRODUCE.md lists what the machine needs from it.
export interface Requirement {
  /** Stable id an adapter or stage names the part by, e.g. 'root', 'runsc', 'binary-crun'. */
  id: string;
  /** What is needed, worded for a reader: 'running as root', 'runsc on PATH'. */
  part: string;
  met: boolean;
  /** Why not, or what was found. */
  detail: string;
  /** How to meet it when known, e.g. 'apt-get install -y crun'. */
  remedy?: string;
}
