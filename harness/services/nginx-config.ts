// Pure: an nginx configuration that serves one folder read-only over HTTP with
// Range support and a directory listing (rclone's http backend lists it), on
// 127.0.0.1 only, with its pid file, logs and temporary folders under the
// run folder; nothing of /etc/nginx or /var/lib/nginx is used.

export interface NginxConfigInput {
  rootDir: string;
  runDir: string;
  port: number;
  /** Run workers as root (when the master runs as root and the store may be private to root). */
  workersAsRoot: boolean;
}

export function nginxConfig(c: NginxConfigInput): string {
  const q = (s: string): string => JSON.stringify(s);
  const lines = [
    'daemon off;',
    'master_process on;',
    'worker_processes 1;',
    ...(c.workersAsRoot ? ['user root root;'] : []),
    `pid ${q(`${c.runDir}/nginx.pid`)};`,
    `error_log ${q(`${c.runDir}/logs/error.log`)} warn;`,
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${q(`${c.runDir}/logs/access.log`)};`,
    `  client_body_temp_path ${q(`${c.runDir}/tmp/body`)};`,
    `  proxy_temp_path ${q(`${c.runDir}/tmp/proxy`)};`,
    `  fastcgi_temp_path ${q(`${c.runDir}/tmp/fastcgi`)};`,
    `  uwsgi_temp_path ${q(`${c.runDir}/tmp/uwsgi`)};`,
    `  scgi_temp_path ${q(`${c.runDir}/tmp/scgi`)};`,
    '  default_type application/octet-stream;',
    '  sendfile on;',
    '  keepalive_timeout 300s;',
    '  keepalive_requests 1000000;',
    '  server {',
    `    listen 127.0.0.1:${c.port};`,
    `    root ${q(c.rootDir)};`,
    '    autoindex on;',
    '    autoindex_exact_size on;',
    '    location / { limit_except GET HEAD { deny all; } }',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}
