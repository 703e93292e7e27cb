import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Picture, pictureUrl, safeHref, TextField, type Target } from '@marketplace/shared';
// Not in the shared singleton: only the pages that play video bundle the player (and fetch hls.js).
import { messageOf } from '@marketplace/shared/errors';
import { VideoPreview } from '@marketplace/shared/video';
import type { OrderActions } from './useOrderActions.js';
import { formatDate } from './labels.js';

/** A video's row plays its preview at this width (16:9), large enough for its play icon. */
const VIDEO_ROW_WIDTH = 160;

/** A reference file's row: its preview, state and description, which its owner may edit or remove. */
export function TargetRow({
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
