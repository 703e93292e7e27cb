#!/usr/bin/env node
// `dev-app`: serves the app in the current folder with rebuild on change (webpack-dev-server).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack from 'webpack';
import WebpackDevServer from 'webpack-dev-server';

const { default: configFor } = await import(pathToFileURL(join(process.cwd(), 'webpack.config.mjs')).href);
const config = configFor({}, { mode: 'development' });
const server = new WebpackDevServer(config.devServer, webpack(config));
await server.start();
