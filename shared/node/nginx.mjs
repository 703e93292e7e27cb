// Runs Debian's nginx in the foreground of a child process with one site configuration, its pid,
// logs and temporary files in a folder of its own (no root-owned path needed). Used by the page
// server's runner (page-server/nginx.ts) and the API gateway's (api/gateway/gateway.mjs).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { waitForPorts } from './ports.mjs';

/**
 * Started by root, nginx runs its workers as another user (nobody, or the `user` directive's),
 * who cannot read a checkout or a temporary folder only its owner may enter: the workers run as
 * the user who started them. Started by anyone else, they already do (nginx ignores `user` then).
 */
function workersUser() {
  return process.getuid?.() === 0 ? `user ${userInfo().username};\n` : '';
}

/**
 * @param {{ workDir: string, port: number, site: string, httpDirectives?: string, name: string }} options
 *   `site`: the server configuration, included in the http block after `httpDirectives`
 * @returns {Promise<{ stop(): Promise<void> }>}
 */
export async function runNginx({ workDir, port, site, httpDirectives = '', name }) {
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'site.conf'), site);
  writeFileSync(
    join(workDir, 'nginx.conf'),
    `${workersUser()}worker_processes 1;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log warn;
events { worker_connections 1024; }
http {
${httpDirectives}
  access_log off;
  client_body_temp_path ${workDir}/body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  include ${workDir}/site.conf;
}
`,
  );
  /** @type {string[]} */
  const log = [];
  const child = spawn('nginx', ['-p', workDir, '-c', join(workDir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  if (!(await waitForPorts([port], () => child.exitCode === null))) {
    child.kill('SIGKILL');
    throw new Error(`nginx for ${name} did not start:\n${log.join('')}`);
  }
  return {
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
