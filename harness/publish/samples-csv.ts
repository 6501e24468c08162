// samples.csv: written by the one writer in db/samples-csv.ts (also used by `measure`).
export { samplesCsv, samplesCsvFile } from '../db/samples-csv.js';
