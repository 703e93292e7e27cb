/** Vitest global setup of the `postgres` project: one server for the run, each test file its own database. */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgresServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
