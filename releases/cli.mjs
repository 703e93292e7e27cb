#!/usr/bin/env node
// `pnpm release <remote> [--canary N | --promote]`, `pnpm rollback <remote>`, `pnpm releases`:
// the release store is RELEASES_DIR (default: releases/store/, beside this file); the live
// shell's manifest, read for the gate, is LIVE_SHELL_MANIFEST (a URL or a file; default: the
// shell's build, shell/dist/mf-manifest.json); LIVE_SHELL_URL, the shell that reads this store, is
// where the gate's smoke load opens the candidate, and without it the smoke load serves the live
// shell's build and the store on loopback (local-platform.mjs). `--skip-smoke` skips it, recorded
// in the history. `--watch` gives the canary the watcher's policy (kept in the store) and follows
// its evaluations on real-user figures until it is decided: the watcher service
// (watcher-service.mjs) judges it when one runs on the store, else this command does, with the
// same step (watch.mjs), the service then baking a version it promoted; `--policy [options]` sets
// the remote's policy for its next canaries (the defaults where it says nothing); `--webhook <url>` names
// the remote's webhook, paged when the watcher goes blind and on rollbacks and promotions. The
// figures are read from the API at API_INTERNAL_URL or PLATFORM_API_URL with ADMIN_TOKEN (figures.mjs); `pnpm releases` shows them per remote and version, and
// `--report <file>` writes them as an HTML page with charts.
//
// This file reads the command line and runs the command it names, one file each (cli-*.mjs).
import { join, resolve } from 'node:path';
import { listCommand } from './cli-list.mjs';
import { promoteCommand } from './cli-promote.mjs';
import { releaseCommand } from './cli-release.mjs';
import { remotePolicyCommand } from './cli-remote-policy.mjs';
import { rollbackCommand } from './cli-rollback.mjs';
import { watchCommand } from './cli-watch.mjs';
import { webhookCommand } from './cli-webhook.mjs';

// The apps' builds are found in the workspace, one folder up.
const root = resolve(import.meta.dirname, '..');
const store = resolve(process.env.RELEASES_DIR ?? join(import.meta.dirname, 'store'));

const [command, name, ...rest] = process.argv.slice(2);
/** @type {import('./cli-args.mjs').Invocation} */
const invocation = { store, root, name, rest };

if (command === 'release' && rest.includes('--webhook')) {
  await webhookCommand(invocation);
} else if (command === 'release' && rest.includes('--policy')) {
  await remotePolicyCommand(invocation);
} else if (command === 'release' && rest.includes('--watch') && !rest.includes('--canary')) {
  await watchCommand(invocation);
} else if (command === 'release' && rest.includes('--promote')) {
  await promoteCommand(invocation);
} else if (command === 'release') {
  await releaseCommand(invocation);
} else if (command === 'rollback') {
  await rollbackCommand(invocation);
} else if (command === 'list') {
  await listCommand(invocation);
} else {
  console.error(
    'usage: pnpm release <remote> [--dist <dir>] [--canary <percent> [--watch [--interval s] [--min-loads n] [--hold n] [--steps 25,50] [--alpha 0.05] [--margin 0.002] [--relative-margin 0.5] [--deadline n] [--at-deadline rollback|hold] [--bake n] [--lcp-margin 0.2] [--inp-margin 0.2]]] [--skip-smoke] | pnpm release <remote> --watch [policy options] | pnpm release <remote> --policy [policy options] | pnpm release <remote> --promote | pnpm release <remote> --webhook <url>|off | pnpm rollback <remote> | pnpm releases [--since 24h] [--report <file>]',
  );
  process.exit(2);
}
