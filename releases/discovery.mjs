// The discovery document: each remote's live version (and canary), switched atomically (written
// beside, then renamed), which the shell reads to choose what to load.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { integrityOf } from './versions.mjs';

export const DISCOVERY_FILE = 'discovery.json';

/**
 * @typedef {{ version: string, manifest: string, integrity: string }} Pointer
 * `rolledBack` lists the versions taken away by a rollback: a page still running one switches to
 * what it would load now at its next navigation (shell/src/remotes/discovery.ts).
 * @typedef {{ live?: Pointer, canary?: Pointer & { percent: number }, versions?: string[], rolledBack?: string[] }} RemoteEntry
 * @typedef {{ remotes: Record<string, RemoteEntry>, manifests?: Record<string, unknown> }} Discovery
 */

/** @param {string} store @returns {Discovery} */
export function readDiscovery(store) {
  const path = join(store, DISCOVERY_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { remotes: {} };
}

/**
 * Replaces the discovery document in one step: readers see the old one or the new one, whole.
 * It carries the manifests of the versions it points at (live and canary), keyed by their path,
 * so that the shell's server composes them into the page with the pointers in the same read: a
 * switch can never pair a pointer with another version's manifest.
 * @param {string} store @param {Discovery} doc
 */
export function writeDiscovery(store, doc) {
  /** @type {Record<string, unknown>} */
  const manifests = {};
  for (const entry of Object.values(doc.remotes)) {
    for (const pointer of [entry.live, entry.canary]) {
      if (pointer) manifests[pointer.manifest] = JSON.parse(readFileSync(join(store, pointer.manifest), 'utf8'));
    }
  }
  const tmp = join(store, `.${DISCOVERY_FILE}.${randomBytes(6).toString('hex')}`);
  // `<` escaped (still the same JSON): the document is composed into the page inside a <script> block.
  writeFileSync(tmp, `${JSON.stringify({ remotes: doc.remotes, manifests }).replaceAll('<', '\\u003c')}\n`);
  renameSync(tmp, join(store, DISCOVERY_FILE));
}

/** A pointer to a stored version, its manifest relative to the discovery document. @param {string} store @param {string} remote @param {string} version @returns {Pointer} */
export function pointerTo(store, remote, version) {
  const manifest = `${remote}/${version}/mf-manifest.json`;
  return { version, manifest, integrity: integrityOf(join(store, manifest)) };
}
