// The README's start command: installs what is missing, then starts the platform.
import { spawn } from 'node:child_process';
import { ensureDeps, root } from './ensure-deps.mjs';

ensureDeps();
const child = spawn('pnpm', ['--filter', 'api', 'start'], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
