// The folder a pipeline's published outputs (reports/) and the paths shown
// to a user are relative to: the pipeline file's folder, or its parent when
// the file sits in a `pipelines/` folder (pipelines/commit-diff.yaml is
// `-f pipelines/commit-diff.yaml` from the checkout's root).
import { basename, dirname } from 'node:path';

export function projectDirOf(pipelineFile: string): string {
  const dir = dirname(pipelineFile);
  return basename(dir) === 'pipelines' ? dirname(dir) : dir;
}
