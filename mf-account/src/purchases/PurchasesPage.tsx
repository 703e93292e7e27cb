import styled from 'styled-components';
import {
  PAGE_DATA,
  pageQuery,
  Card,
  Link,
  PAGES,
  PhotoIcon,
  Picture,
  safeHref,
  theme,
  type OwnedItem,
} from '@marketplace/shared';
import { AccountPage } from '../profile/AccountPage.js';
import { useAccountQuery } from '../profile/queries.js';

/** Cards of at least 200 px: one across a phone, three in the wide column. */
const Grid = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: ${theme.space.lg};
  > li {
    padding: 0 0 ${theme.space.md};
    overflow: hidden;
  }
  picture {
    display: contents;
  }
  img,
  .no-picture {
    display: block;
    width: 100%;
    height: auto;
    aspect-ratio: 3 / 2;
    object-fit: cover;
    background: ${theme.colors.surface};
  }
  .no-picture {
    display: flex;
    align-items: center;
    justify-content: center;
    color: ${theme.colors.muted};
    font-size: 32px;
  }
  h2 {
    font-size: 1.05em;
    overflow-wrap: anywhere;
  }
  h2,
  p {
    margin: ${theme.space.sm} ${theme.space.md} 0;
  }
  .muted {
    color: ${theme.colors.muted};
    font-size: ${theme.text.small};
  }
`;

/** How wide a card's picture is laid out: the column's 200 px-and-up cards. */
const CARD_SIZES = '(max-width: 480px) 100vw, 340px';

export function PurchasesPage() {
  const q = useAccountQuery(pageQuery(PAGE_DATA.purchases()));
  const items = q.data?.items ?? [];
  const downloadAll = safeHref(q.data?.downloadAllUrl);
  return (
    <AccountPage
      title="Purchases"
      width="wide"
      state={q}
      empty={{
        when: items.length === 0,
        title: 'You have not bought anything yet.',
        hint: (
          <>
            Find photos and videos on the <Link to={PAGES.events.href()}>Events</Link> page.
          </>
        ),
      }}
    >
      {downloadAll && (
        <p>
          <a href={downloadAll} download>
            Download all (ZIP)
          </a>
        </p>
      )}
      <Grid aria-label="Purchased items">
        {items.map((item) => (
          <OwnedCard key={`${item.purchaseNumber}/${item.identifier}`} item={item} />
        ))}
      </Grid>
    </AccountPage>
  );
}

function OwnedCard({ item }: { item: OwnedItem }) {
  const download = safeHref(item.downloadUrl);
  return (
    <Card as="li">
      {item.image ? (
        <Picture image={item.image} alt="" sizes={CARD_SIZES} />
      ) : (
        <div className="no-picture" aria-hidden="true">
          <PhotoIcon />
        </div>
      )}
      <h2>{item.name}</h2>
      <p>by {item.sellerName}</p>
      {item.eventName && <p className="muted">{item.eventName}</p>}
      <p className="muted">
        Purchase <Link to={PAGES.receipt.href({ purchaseNumber: item.purchaseNumber })}>{item.purchaseNumber}</Link>
      </p>
      {download && (
        <p>
          {/* Each card's link is named for its item: a list of links all called "Download" says nothing. */}
          <a href={download} download aria-label={`Download ${item.name}`}>
            Download
          </a>
        </p>
      )}
    </Card>
  );
}
