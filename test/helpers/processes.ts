// Process facts for tests, from /proc.
export { isAlive as alive } from '../../harness/process/pid.js';
