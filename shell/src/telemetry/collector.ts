import {
  BEACON_MAX_ERRORS,
  BEACON_MAX_PER_LOAD,
  BEACON_MESSAGE_CHARS,
  type Beacon,
  type BeaconError,
  type Owner,
  type PageToken,
  type RemoteName,
  type VitalName,
} from '@marketplace/shared/platform';

/** A page load sends at most this many beacons (the API closes the load at the last). */
export const MAX_BEACONS_PER_LOAD = BEACON_MAX_PER_LOAD;
/** Errors waiting for a beacon past this are dropped: a page throwing in a loop reports its first ones. */
const MAX_PENDING_ERRORS = 100;

/**
 * What one page load has to report (shared/src/platform/beacon.ts), gathered as it happens: the
 * remotes it used at their versions, its vitals as they stand and the errors not yet sent. `take`
 * hands over a beacon when there is something new, once the page server's token for the load is
 * in (`sign`; until then everything waits), and forgets the errors it carries.
 */
export class Collector {
  private readonly versions: Partial<Record<RemoteName, string>> = {};
  private readonly vitals: Beacon['vitals'] = {};
  private errors: BeaconError[] = [];
  private changed = false;
  private sent = 0;
  private closed = false;
  private page: PageToken | null;

  /**
   * `render`: the page server's render this page came from (Beacon['render']); every beacon of
   * the load names it, so the API has it whichever arrives first.
   */
  constructor(
    page: PageToken | null = null,
    private readonly render?: string,
  ) {
    this.page = page;
  }

  /** The load's id and token, from its page server (BEACON_TOKEN_PATH). */
  sign(page: PageToken): void {
    this.page = page;
  }

  used(remote: RemoteName, version: string): void {
    if (this.versions[remote] === version) return;
    // The first version a load used is the one its figures count (a rollback switching it later
    // does not move the load to the version it switched to).
    this.versions[remote] ??= version;
    this.changed = true;
  }

  vital(name: VitalName, value: number, owner: Owner): void {
    this.vitals[name] = { value, owner };
    this.changed = true;
  }

  /**
   * An error as the beacon says it (attribution.ts): its owner, kind and words, and the frame it
   * was thrown at in its owner's files when it has one.
   */
  error(error: BeaconError): void {
    if (this.errors.length >= MAX_PENDING_ERRORS) return;
    this.errors.push({ ...error, message: error.message.slice(0, BEACON_MESSAGE_CHARS) });
    this.changed = true;
  }

  /**
   * The beacon to send now, or null: no token yet, nothing changed since the last one, or the load
   * has sent its share or its final beacon. `final` (the page is going away): sent even with
   * nothing new, so the API closes the load; nothing is sent after it.
   */
  take(final = false): Beacon | null {
    const page = this.page;
    if (!page || this.closed || this.sent >= MAX_BEACONS_PER_LOAD || (!this.changed && !final)) return null;
    // A beacon carries what room allows; the rest waits for the next one.
    const errors = this.errors.splice(0, BEACON_MAX_ERRORS);
    // Only the versions the token signs: a remote used at another (a tester's version kept by the
    // tab) is left out, or the API would refuse the whole beacon; its errors then count for no version.
    const versions = Object.fromEntries(
      Object.entries(this.versions).filter(([remote, version]) =>
        page.versions[remote as RemoteName]?.includes(version),
      ),
    );
    const beacon: Beacon = {
      load: page.load,
      token: page.token,
      versions,
      ...(this.render && { render: this.render }),
      vitals: { ...this.vitals },
      errors,
      ...(final && { final: true }),
    };
    this.changed = this.errors.length > 0;
    this.sent += 1;
    this.closed = final;
    return beacon;
  }
}
