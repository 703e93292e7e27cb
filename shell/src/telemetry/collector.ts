import {
  BEACON_MAX_ERRORS,
  BEACON_MESSAGE_CHARS,
  type Beacon,
  type BeaconError,
  type BeaconErrorKind,
  type Owner,
  type RemoteName,
  type VitalName,
} from '@marketplace/shared/platform';

/** A page load sends at most this many beacons: a tab hidden and shown all day is not a flood. */
export const MAX_BEACONS_PER_LOAD = 10;
/** Errors waiting for a beacon past this are dropped: a page throwing in a loop reports its first ones. */
const MAX_PENDING_ERRORS = 100;

/**
 * What one page load has to report (shared/src/platform/beacon.ts), gathered as it happens: the
 * remotes it used at their versions, its vitals as they stand and the errors not yet sent. `take`
 * hands over a beacon when there is something new and forgets the errors it carries.
 */
export class Collector {
  private readonly versions: Partial<Record<RemoteName, string>> = {};
  private readonly vitals: Beacon['vitals'] = {};
  private errors: BeaconError[] = [];
  private changed = false;
  private sent = 0;

  constructor(readonly load: string) {}

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

  error(owner: Owner, kind: BeaconErrorKind, message: string): void {
    if (this.errors.length >= MAX_PENDING_ERRORS) return;
    this.errors.push({ owner, kind, message: message.slice(0, BEACON_MESSAGE_CHARS) });
    this.changed = true;
  }

  /** The beacon to send now, or null when nothing changed since the last one (or the load has sent its share). */
  take(): Beacon | null {
    if (!this.changed || this.sent >= MAX_BEACONS_PER_LOAD) return null;
    // A beacon carries what room allows; the rest waits for the next one.
    const errors = this.errors.splice(0, BEACON_MAX_ERRORS);
    const beacon: Beacon = { load: this.load, versions: { ...this.versions }, vitals: { ...this.vitals }, errors };
    this.changed = this.errors.length > 0;
    this.sent += 1;
    return beacon;
  }
}
