import styled from 'styled-components';
import { theme } from '@marketplace/shared';
import type { FileUpload } from './uploadFiles.js';
import type { UploadRow } from './useUploads.js';

const Rows = styled.ul`
  list-style: none;
  padding: 0;
  margin: ${theme.space.sm} 0 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${theme.space.xs} ${theme.space.md};
    padding: ${theme.space.xs} 0;
    font-size: ${theme.text.small};
  }
  .name {
    flex: 1 1 160px;
    min-width: 0;
    overflow-wrap: anywhere;
    font-weight: 600;
  }
  progress {
    width: 120px;
  }
  .refused {
    color: ${theme.colors.danger};
  }
`;

function stateText(upload: FileUpload): string {
  switch (upload.state) {
    case 'waiting':
      return 'Waiting';
    case 'preparing':
      return 'Preparing…';
    case 'sending':
      return `Sending… ${upload.total ? Math.floor((upload.loaded / upload.total) * 100) : 0}%`;
    case 'sent':
      return 'Processing…';
    case 'refused':
      return upload.reason;
  }
}

/**
 * The files being uploaded, one row each: a bar while it is prepared (indeterminate) and sent
 * (its bytes), then "Processing…" until the order lists it (`listed`: its rows take over), or why
 * it was refused. The count above is a polite live region, read as files finish.
 */
export function UploadList({ rows, listed }: { rows: readonly UploadRow[]; listed: ReadonlySet<number> }) {
  const sent = rows.filter((row) => row.upload.state === 'sent').length;
  const refused = rows.filter((row) => row.upload.state === 'refused').length;
  const shown = rows.filter((row) => !(row.upload.state === 'sent' && listed.has(row.upload.targetId)));
  return (
    <>
      <div role="status" aria-live="polite">
        {rows.length > 0 && (
          <p style={{ margin: `${theme.space.sm} 0 0` }}>
            Uploaded {sent}/{rows.length}
            {refused > 0 && `, ${refused} not accepted`}
          </p>
        )}
      </div>
      {shown.length > 0 && (
        <Rows aria-label="Files being uploaded">
          {shown.map(({ key, name, upload }) => (
            <li key={key}>
              <span className="name">{name}</span>
              {upload.state === 'preparing' && <progress aria-label={`Preparing ${name}`} />}
              {upload.state === 'sending' && (
                <progress aria-label={`Sending ${name}`} value={upload.loaded} max={upload.total || 1} />
              )}
              <span className={upload.state}>{stateText(upload)}</span>
            </li>
          ))}
        </Rows>
      )}
    </>
  );
}
