import { type ContentItem, Link, PAGES, safeHref } from '@marketplace/shared';
import { AddToCartButton, type AddToCart } from '../cart/AddToCart.js';
import { ItemPrice } from '../browse/ui.js';

/** Under the item: its name (the dialog's title), event, photographer, price, Add to cart and Download. */
export function ViewerInfo({
  item,
  titleId,
  addToCart,
  downloadUrl,
  onFollowLink,
}: {
  item: ContentItem;
  titleId: string;
  addToCart?: AddToCart;
  downloadUrl?: (item: ContentItem) => string;
  onFollowLink: () => void;
}) {
  const download = downloadUrl ? safeHref(downloadUrl(item)) : null;
  const eventLink = item.eventIdentifier ? PAGES.event.href({ eventIdentifier: item.eventIdentifier }) : null;
  return (
    <div className="info" data-backdrop="">
      <h2 id={titleId}>{item.name}</h2>
      {item.eventName && (
        <p>
          {eventLink ? (
            <Link to={eventLink} onClick={onFollowLink}>
              {item.eventName}
            </Link>
          ) : (
            item.eventName
          )}
        </p>
      )}
      <p>
        by{' '}
        {item.profileName ? (
          <Link to={PAGES.creator.href({ profileName: item.profileName })} onClick={onFollowLink}>
            {item.photographer}
          </Link>
        ) : (
          item.photographer
        )}
      </p>
      {item.canAddToCart && <ItemPrice item={item} />}
      {(addToCart || download) && (
        <div className="actions">
          {addToCart && <AddToCartButton key={item.contentIdentifier} item={item} addToCart={addToCart} />}
          {download && (
            <a href={download} download={item.filename}>
              Download
            </a>
          )}
        </div>
      )}
    </div>
  );
}
