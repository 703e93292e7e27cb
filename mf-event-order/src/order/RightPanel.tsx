import {
  Button,
  EmptyState,
  FileField,
  formatMoney,
  PhotoIcon,
  safeHref,
  type EventOrderDetails,
} from '@marketplace/shared';
import type { OrderActions } from './useOrderActions.js';
import { formatDate } from './labels.js';
import { UPLOAD_ACCEPT } from '../uploads/uploadFiles.js';
import { UploadList } from '../uploads/UploadList.js';
import { DeliverablesGallery } from './DeliverablesGallery.js';
import { SharePanel } from './SharePanel.js';
import { TargetRow } from './TargetRow.js';
import { Panel } from './ui.js';

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
            <DeliverablesGallery deliverables={deliverables} canDownload={canDownload} />
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
