// Whether a pipeline file's text extends another (pipeline-extends.ts), asked
// by the config cache before it loads anything: kept apart from the extends
// resolver so that a cache hit does not load the YAML parser.

/** Pure: the text starts an `extends:` chain (a top-level extends key), so its inputs are more than its own bytes. */
export const hasExtends = (text: string): boolean => /^extends\s*:/m.test(text);
