// The platform's apps: federation name and default port of each, in one place for the
// webpack configs, the static server and the runtime config.
/** @type {Record<string, { federationName: string, port: number }>} */
export const APPS = {
  shell: { federationName: 'shell', port: 3000 },
  'mf-header': { federationName: 'header', port: 3001 },
  'mf-media': { federationName: 'media', port: 3002 },
  'mf-event-order': { federationName: 'eventOrder', port: 3003 },
  'mf-account': { federationName: 'account', port: 3004 },
};

export const API_DEFAULT_ORIGIN = 'http://localhost:4000';

/**
 * Looks an app up by its package name (the folder's package.json).
 * @param {string} packageName
 */
export function appFor(packageName) {
  const app = APPS[packageName];
  if (!app) throw new Error(`webpack-preset: unknown app '${packageName}'; add it to APPS in build-preset/apps.mjs`);
  return app;
}

/** @param {string} packageName */
const manifestUrl = (packageName) => `http://localhost:${appFor(packageName).port}/mf-manifest.json`;

/**
 * The shell's runtime config, written from environment variables when an app is served, so
 * no URL is baked into a build. Defaults run everything on localhost.
 */
export function runtimeConfigFromEnv(env = process.env) {
  const apiOrigin = env.API_ORIGIN || API_DEFAULT_ORIGIN;
  return {
    apiOrigin,
    filesOrigin: env.FILES_ORIGIN || apiOrigin,
    liveUrl: env.LIVE_URL || `${apiOrigin.replace(/^http/, 'ws')}/mqtt`,
    remotes: {
      header: env.HEADER_MANIFEST_URL || manifestUrl('mf-header'),
      media: env.MEDIA_MANIFEST_URL || manifestUrl('mf-media'),
      eventOrder: env.EVENT_ORDER_MANIFEST_URL || manifestUrl('mf-event-order'),
      account: env.ACCOUNT_MANIFEST_URL || manifestUrl('mf-account'),
    },
  };
}

/** The single-bundle build (the shell and every remote in one application) is served here. */
export const SINGLE_BUNDLE_PORT = 3010;
