#!/usr/bin/env node
// `build-app`: production build of the app in the current folder, from its webpack.config.mjs
// (or the file after --config, e.g. the shell's single-bundle build).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack from 'webpack';

const configAt = process.argv.indexOf('--config');
const configFile = (configAt > 0 && process.argv[configAt + 1]) || 'webpack.config.mjs';
const { default: configFor } = await import(pathToFileURL(join(process.cwd(), configFile)).href);
const argv = { mode: process.argv.includes('--development') ? 'development' : 'production' };
const config = configFor({}, argv);
// A remote's production build also has its server build (build-preset/server.mjs), compiled after it.
const server = argv.mode === 'production' && configFor.server ? configFor.server({}, argv) : null;

webpack(server ? [config, server] : config, (error, stats) => {
  if (error || !stats) {
    console.error(error);
    process.exit(1);
  }
  const shown = {
    colors: process.stdout.isTTY,
    modules: false,
    children: false,
    chunks: false,
    chunkModules: false,
    entrypoints: false,
  };
  // Both builds of a remote, each as one.
  console.log(stats.toString(server ? { children: [shown, shown] } : shown));
  process.exit(stats.hasErrors() ? 1 : 0);
});
