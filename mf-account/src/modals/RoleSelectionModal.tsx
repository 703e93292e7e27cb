import { useState } from 'react';
import { apiCall, Modal, sessionStore } from '@marketplace/shared';

/** Where users write when neither role fits (SPEC.md section 5; the address is ours to choose). */
export const BUSINESS_EMAIL = 'hello@eventmedia.example';

/** SPEC.md section 5: mandatory until the user has a role; Continue needs a tick and is off while saving. */
export function RoleSelectionModal() {
  const [driver, setDriver] = useState(false);
  const [media, setMedia] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      sessionStore.getState().setUser(await apiCall('updateRoles', { driver, media }));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Saving failed');
      setSaving(false);
    }
  };
  return (
    <Modal title="You need at least 1 role to continue">
      <label style={{ display: 'block' }}>
        <input type="checkbox" checked={driver} onChange={(e) => setDriver(e.target.checked)} /> Driver
      </label>
      <label style={{ display: 'block' }}>
        <input type="checkbox" checked={media} onChange={(e) => setMedia(e.target.checked)} /> Media
      </label>
      {error && <p role="alert">{error}</p>}
      <p>
        If neither role fits, email us at <a href={`mailto:${BUSINESS_EMAIL}`}>{BUSINESS_EMAIL}</a>.
      </p>
      <button type="button" disabled={(!driver && !media) || saving} onClick={() => void save()}>
        Continue
      </button>
    </Modal>
  );
}
