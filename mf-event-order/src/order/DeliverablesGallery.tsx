import styled from 'styled-components';
import { Picture, pictureUrl, safeHref, theme, type Target } from '@marketplace/shared';
// Not in the shared singleton: only the pages that play video bundle the player (and fetch hls.js).
import { VideoPreview } from '@marketplace/shared/video';

/** The delivered files as a grid of captioned pictures. */
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

/** What was delivered, a figure each. */
export function DeliverablesGallery({ deliverables, canDownload }: { deliverables: Target[]; canDownload: boolean }) {
  return (
    <Gallery aria-label="Deliverables">
      {deliverables.map((t) => (
        <Deliverable key={t.targetId} target={t} canDownload={canDownload} />
      ))}
    </Gallery>
  );
}
