// Child process of test/experiment-adaptive-sessions.test.ts: samples the
// toy adapter's adaptive experiment in ROOT and stalls in session 4 after 5 visits,
// writing STALL_FILE, until the test kills it with SIGKILL.
// Usage: node dist/test/helpers/adaptive-child.js ROOT STALL_FILE
import { sampleExperiment } from '../../harness/experiment/sample-experiment.js';
import { toyAdapter, toyContext } from './toy-adapter.js';

const [root, stallFile] = process.argv.slice(2) as [string, string];
await sampleExperiment(
  toyContext(root, { min_sessions: 3, max_sessions: 5 }),
  toyAdapter(['clear', 'noisy'], { stall: { session: 4, afterVisits: 5, stallFile } }),
);
