import { useEffect, useState } from 'react';
import { Button, PAGES, TextField, type EventOrderDetails } from '@marketplace/shared';
import { Panel } from './ui.js';

/**
 * The order's sharing link, for its parties: whoever opens it sees the delivered pictures (never
 * an original) without an account. The client may end it, which makes a new one.
 */
export function SharePanel({ details, onReset }: { details: EventOrderDetails; onReset: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  // The page's own origin, known in the browser only: a server-rendered page shows the path until then.
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  if (!details.sharingId) return null;
  const link = `${origin}${PAGES.eventOrder.href({ orderId: details.eventOrderInfo.orderId })}?sharingId=${encodeURIComponent(details.sharingId)}`;
  const copy = () => {
    navigator.clipboard.writeText(link).then(
      () => setNote('Link copied'),
      () => setNote('Select the link and copy it'),
    );
  };
  const reset = () => {
    setBusy(true);
    onReset().then(
      () => {
        setNote('The old link no longer works: this is the new one');
        setBusy(false);
      },
      () => {
        setNote('The link could not be changed: try again');
        setBusy(false);
      },
    );
  };
  return (
    <Panel aria-labelledby="share">
      <h2 id="share">Share</h2>
      <TextField
        label="Anyone with this link sees the delivered pictures"
        value={link}
        readOnly
        onFocus={(e) => e.target.select()}
      />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 8 }}>
        <Button onClick={copy}>Copy link</Button>
        {details.view === 'client' && (
          <Button variant="ghost" disabled={busy} onClick={reset}>
            Stop sharing this link
          </Button>
        )}
      </div>
      {note && <p role="status">{note}</p>}
    </Panel>
  );
}
