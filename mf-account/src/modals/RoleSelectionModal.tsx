import { useContext, useState } from 'react';
import { apiCall, Button, Checkbox, Modal, SessionStoreContext } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';

/** Where users write when neither role fits (SPEC.md section 5; the address is ours to choose). */
export const BUSINESS_EMAIL = 'hello@eventmedia.example';

/** SPEC.md section 5: mandatory until the user has a role; Continue needs a tick and is off while saving. */
export function RoleSelectionModal() {
  const store = useContext(SessionStoreContext);
  const [driver, setDriver] = useState(false);
  const [media, setMedia] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      store.getState().setUser(await apiCall('updateRoles', { driver, media }));
    } catch (e) {
      setError(messageOf(e, 'Saving failed'));
      setSaving(false);
    }
  };
  return (
    <Modal title="You need at least 1 role to continue">
      <Checkbox label="Driver" checked={driver} onChange={(e) => setDriver(e.target.checked)} />
      <Checkbox label="Media" checked={media} onChange={(e) => setMedia(e.target.checked)} />
      {error && <p role="alert">{error}</p>}
      <p>
        If neither role fits, email us at <a href={`mailto:${BUSINESS_EMAIL}`}>{BUSINESS_EMAIL}</a>.
      </p>
      <Button variant="primary" disabled={(!driver && !media) || saving} onClick={() => void save()}>
        Continue
      </Button>
    </Modal>
  );
}
