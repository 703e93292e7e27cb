import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import {
  Button,
  EmptyState,
  FileField,
  formatMoney,
  PhotoIcon,
  Picture,
  pictureUrl,
  safeHref,
  TextField,
  theme,
  type EventOrderDetails,
  type Target,
} from '@marketplace/shared';
// Not in the shared singleton: only the pages that play video bundle the player (and fetch hls.js).
import { messageOf } from '@marketplace/shared/errors';
import { VideoPreview } from '@marketplace/shared/video';
import type { OrderActions } from './useOrderActions.js';
import { formatDate } from './labels.js';
import { UPLOAD_ACCEPT } from '../uploads/uploadFiles.js';
import { UploadList } from '../uploads/UploadList.js';
import { SharePanel } from './SharePanel.js';
import { Panel } from './ui.js';

/** A video's row plays its preview at this width (16:9), large enough for its play icon. */
const VIDEO_ROW_WIDTH = 160;

function TargetRow({
  target,
  canDownload,
  canEdit,
  actions,
}: {
  target: Target;
  canDownload: boolean;
  canEdit: boolean;
  actions: OrderActions;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(target.description);
  const [saveError, setSaveError] = useState<string | null>(null);
  // Done editing (saved or not), the keyboard is back on the Edit button, not at the page's top.
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const stopEditing = () => {
    setEditing(false);
    setSaveError(null);
  };
  const cancel = () => {
    setText(target.description);
    stopEditing();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    cancel();
  };
  const [viewUrl, downloadUrl] = target.targetURLs.map((u) => safeHref(u));
  return (
    <li style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 8 }}>
      {target.video ? (
        // The ladder the media job made, through the order's signed links; its poster until it plays.
        <VideoPreview
          url={target.video.hls}
          thumbnailUrl={target.image && pictureUrl(target.image, VIDEO_ROW_WIDTH * 2)}
          width={VIDEO_ROW_WIDTH}
          height={(VIDEO_ROW_WIDTH * 9) / 16}
        />
      ) : target.image ? (
        <Picture image={target.image} alt={target.target} sizes="64px" width={64} height={48} />
      ) : (
        viewUrl && (
          <img src={viewUrl} alt={target.target} width={64} height={48} loading="lazy" style={{ objectFit: 'cover' }} />
        )
      )}
      <div style={{ flex: '1 1 160px', minWidth: 0, overflowWrap: 'anywhere' }}>
        <div>{target.target}</div>
        {target.state === 'processing' && (
          <small role="status" style={{ display: 'block' }}>
            {target.contentType.startsWith('video/') ? 'Video preview is processing' : 'Processing…'}
          </small>
        )}
        {target.state === 'failed' && (
          <small role="alert" style={{ color: '#b3261e', display: 'block' }}>
            Not accepted: {target.failureReason ?? 'this file could not be processed'}
          </small>
        )}
        {editing ? (
          <form
            style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-end' }}
            onKeyDown={onKeyDown}
            onSubmit={(e) => {
              e.preventDefault();
              setSaveError(null);
              actions
                .changeDescription(target.targetId, text)
                .then(stopEditing, (error: unknown) => setSaveError(messageOf(error, 'Not saved: try again')));
            }}
          >
            <TextField
              label={`Description of ${target.target}`}
              value={text}
              maxLength={500}
              // Opened by Edit: typing goes here (Esc or Cancel leaves the description as it was).
              autoFocus
              error={saveError ?? undefined}
              onChange={(e) => setText(e.target.value)}
            />
            <Button variant="primary" type="submit">
              Save
            </Button>
            <Button variant="secondary" onClick={cancel}>
              Cancel
            </Button>
          </form>
        ) : (
          <small style={{ display: 'block' }}>
            {target.description || 'No description'} · {formatDate(target.uploadedAt)}
          </small>
        )}
      </div>
      {canDownload && downloadUrl && <a href={downloadUrl}>Download</a>}
      {canEdit && !editing && (
        <>
          <Button
            ref={editButton}
            variant="ghost"
            size="small"
            onClick={() => {
              setText(target.description);
              setEditing(true);
            }}
            aria-label={`Change the description of ${target.target}`}
          >
            Edit
          </Button>
          <Button
            variant="ghost"
            size="small"
            onClick={() => actions.remove(target.targetId, target.target)}
            aria-label={`Remove ${target.target}`}
          >
            Remove
          </Button>
        </>
      )}
    </li>
  );
}

/** The right panel: requirements, uploads (targets) and media payout details. */
const Gallery = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
  gap: ${theme.space.md};
  figure {
    margin: 0;
  }
  img {
    width: 100%;
    height: auto;
    aspect-ratio: 3 / 2;
    object-fit: cover;
    border-radius: 6px;
    background: ${theme.colors.locked};
  }
  figcaption {
    display: flex;
    justify-content: space-between;
    gap: ${theme.space.sm};
    font-size: ${theme.text.small};
    overflow-wrap: anywhere;
  }
`;

/** A delivered file in the gallery: its picture (or its poster and player), its name and, for those who may, its download. */
function Deliverable({ target, canDownload }: { target: Target; canDownload: boolean }) {
  const downloadUrl = safeHref(target.targetURLs[1] ?? '');
  return (
    <li>
      <figure>
        {target.video ? (
          <VideoPreview
            url={target.video.hls}
            thumbnailUrl={target.image && pictureUrl(target.image, 400)}
            width={200}
            height={(200 * 9) / 16}
          />
        ) : target.image ? (
          <Picture
            image={target.image}
            alt={target.description || target.target}
            sizes="(max-width: 600px) 50vw, 200px"
          />
        ) : (
          <p>{target.state === 'processing' ? 'Processing…' : target.target}</p>
        )}
        <figcaption>
          <span>{target.description || target.target}</span>
          {canDownload && downloadUrl && (
            <a href={downloadUrl} aria-label={`Download ${target.target}`}>
              Download
            </a>
          )}
        </figcaption>
      </figure>
    </li>
  );
}

/** The right panel: requirements, what was delivered, the client's reference files and media payout details. */
export function RightPanel({ details, actions }: { details: EventOrderDetails; actions: OrderActions }) {
  const { requirementInfo: req, mediaPayoutInfo: pay, view } = details;
  // SPEC.md section 6: client and sharedUser may download (a link holder the pictures, never an
  // original); the parties (client, photographer) manage uploads while the order lets them.
  const canDownload = view === 'client' || view === 'sharedUser';
  // Each party changes only its own files (the API holds it): the reference files are the client's.
  const canEdit = view === 'client' && details.canUpload;
  const deliverables = details.targets.filter((t) => t.kind === 'deliverable');
  // A removed file leaves the list at once (Undo brings it back).
  const removed = new Set(actions.removals.map((r) => r.targetId));
  const references = details.targets.filter((t) => t.kind === 'reference' && !removed.has(t.targetId));
  const zipUrl = safeHref(details.deliverablesZipUrl ?? '');
  const uploadField = details.canUpload && (
    <FileField
      label={view === 'photographer' ? 'Add deliverables' : 'Add images or videos'}
      accept={UPLOAD_ACCEPT}
      multiple
      onFiles={(files) => void actions.upload(files)}
    />
  );
  const progress = (details.canUpload || actions.uploads.length > 0) && (
    <UploadList rows={actions.uploads} listed={new Set(details.targets.map((t) => t.targetId))} />
  );
  // Not only while the client may edit: a removal under way still says how it went.
  const undoRemovals = view === 'client' && (
    <div role="status" aria-live="polite">
      {actions.removals
        .filter((r) => !r.sent)
        .map((r) => (
          <p key={r.targetId}>
            Removed {r.name}.{' '}
            <Button
              variant="link"
              onClick={() => actions.undoRemoval(r.targetId)}
              aria-label={`Undo removing ${r.name}`}
            >
              Undo
            </Button>
          </p>
        ))}
      {actions.removalFailure && <p>{actions.removalFailure}</p>}
    </div>
  );
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 16, minWidth: 0 }}>
      {view !== 'sharedUser' && (
        <Panel aria-labelledby="requirements">
          <h2 id="requirements">Requirements</h2>
          <p>{req.summary}</p>
          <dl>
            {req.items.map((item) => (
              <div key={item.label}>
                <dt>{item.label}</dt>
                <dd>{item.value}</dd>
              </div>
            ))}
          </dl>
        </Panel>
      )}
      {(deliverables.length > 0 || (view === 'photographer' && details.canUpload) || view === 'sharedUser') && (
        <Panel aria-labelledby="deliverables">
          <h2 id="deliverables">Delivered photos and videos</h2>
          {deliverables.length === 0 ? (
            <EmptyState title="Nothing delivered yet." icon={<PhotoIcon />} />
          ) : (
            <Gallery aria-label="Deliverables">
              {deliverables.map((t) => (
                <Deliverable key={t.targetId} target={t} canDownload={canDownload} />
              ))}
            </Gallery>
          )}
          {zipUrl && (
            <p>
              <a href={zipUrl} download>
                Download all ({deliverables.length} {deliverables.length === 1 ? 'file' : 'files'}, ZIP)
              </a>
            </p>
          )}
          {view === 'photographer' && uploadField}
          {view === 'photographer' && progress}
        </Panel>
      )}
      {view !== 'sharedUser' && (
        <Panel aria-labelledby="uploads">
          <h2 id="uploads">Reference files</h2>
          {references.length === 0 ? (
            <EmptyState title="No uploads yet." icon={<PhotoIcon />} />
          ) : (
            <ul aria-label="Uploaded files" style={{ listStyle: 'none', padding: 0 }}>
              {references.map((t) => (
                <TargetRow key={t.targetId} target={t} canDownload={canDownload} canEdit={canEdit} actions={actions} />
              ))}
            </ul>
          )}
          {undoRemovals}
          {view === 'client' && uploadField}
          {view === 'client' && progress}
        </Panel>
      )}
      {details.sharingId && deliverables.length > 0 && <SharePanel details={details} onReset={actions.resetSharing} />}
      {pay && (
        <Panel aria-labelledby="payout">
          <h2 id="payout">Media payout</h2>
          <dl>
            <dt>Total</dt>
            <dd>{formatMoney(pay.totalCents, pay.currency)}</dd>
            <dt>Platform fee</dt>
            <dd>{formatMoney(pay.platformFeeCents, pay.currency)}</dd>
            <dt>Photographer payout</dt>
            <dd>{formatMoney(pay.photographerPayoutCents, pay.currency)}</dd>
            <dt>Paid out</dt>
            <dd>{pay.paidOut && pay.paidOutAt ? formatDate(pay.paidOutAt) : 'Not yet'}</dd>
          </dl>
        </Panel>
      )}
      {view === 'client' && details.payment && (
        <Panel aria-labelledby="payment">
          <h2 id="payment">Payment</h2>
          <dl>
            <dt>Total</dt>
            <dd>{formatMoney(details.payment.totalCents, details.payment.currency)}</dd>
            <dt>Paid</dt>
            <dd>{details.payment.paid ? 'Yes' : 'Not yet'}</dd>
          </dl>
        </Panel>
      )}
    </div>
  );
}
