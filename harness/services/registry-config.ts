// Pure: the configuration file of a Distribution registry (Debian
// docker-registry) serving filesystem storage on 127.0.0.1 only.

export interface RegistryConfigInput {
  storageDir: string;
  port: number;
  /** Refuse pushes and deletes (serving frozen prepared data). */
  readOnly: boolean;
  /** Shared secret for upload state (fixed per run; uploads are local). */
  httpSecret: string;
}

export function registryConfigYaml(c: RegistryConfigInput): string {
  return [
    'version: 0.1',
    'log:',
    '  level: warn',
    '  accesslog:',
    '    disabled: true',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${JSON.stringify(c.storageDir)}`,
    '  maintenance:',
    '    uploadpurging:',
    '      enabled: false',
    '    readonly:',
    `      enabled: ${c.readOnly}`,
    '  delete:',
    '    enabled: false',
    'http:',
    `  addr: 127.0.0.1:${c.port}`,
    `  secret: ${JSON.stringify(c.httpSecret)}`,
    '',
  ].join('\n');
}
