/**
 * The platform's deployables, written once. Everything else derives from this table: the Node
 * tools' app list and runtime config (`node/platform.mjs`, through `platform.json`, which
 * `platform.test.ts` keeps equal to it), the shell's remote registry, the e2e environment, the bench and the start script.
 */
export const REMOTES = {
  header: { package: 'mf-header', devPort: 3001, manifestVariable: 'HEADER_MANIFEST_URL' },
  media: { package: 'mf-media', devPort: 3002, manifestVariable: 'MEDIA_MANIFEST_URL' },
  eventOrder: { package: 'mf-event-order', devPort: 3003, manifestVariable: 'EVENT_ORDER_MANIFEST_URL' },
  account: { package: 'mf-account', devPort: 3004, manifestVariable: 'ACCOUNT_MANIFEST_URL' },
} as const;

export type RemoteName = keyof typeof REMOTES;
export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

/** The host: not a remote, but served and started like one. */
export const SHELL = { name: 'shell', package: 'shell', devPort: 3000 } as const;

/** The single-bundle build (the shell and every remote in one application) is served here. */
export const SINGLE_BUNDLE_PORT = 3010;
