import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { afterPaint, type ContentItem, useLocation, useNavigate } from '@marketplace/shared';

/** The query parameter naming the photo or video open in the viewer: `/event/x?photo=ci-photo-001`. */
export const PHOTO_PARAM = 'photo';

/** What the viewer puts in the history entry it adds, so closing it can step back over that entry. */
interface ViewerState {
  photoViewer: true;
}
const isViewerState = (state: unknown): state is ViewerState =>
  typeof state === 'object' && state !== null && (state as Partial<ViewerState>).photoViewer === true;

const never = () => () => {};
/**
 * False on the server and while the page hydrates, true after (and at once in a tree mounted in
 * the browser): what only the browser shows, the viewer, waits for it, so hydration matches.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/** The address of the same page with `?photo=` set to `identifier`, or without it for null. */
export function photoAddress(location: { pathname: string; search: string; hash: string }, identifier: string | null) {
  const params = new URLSearchParams(location.search);
  if (identifier === null) params.delete(PHOTO_PARAM);
  else params.set(PHOTO_PARAM, identifier);
  const search = params.toString();
  return { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash };
}

export interface PhotoAddress {
  /** The index in `items` of the photo the address names, once hydrated; null when none of these is. */
  index: number | null;
  /** Opens the viewer at `items[index]` at once; a new history entry follows it, so Back closes it. */
  open(index: number): void;
  /** The viewer moved to `items[index]`: the same entry names it now (Back still closes the viewer). */
  show(index: number): void;
  /** Closes the viewer: back over the entry `open` added, or (a shared link) the address without the photo. */
  close(): void;
}

/**
 * An address per photo: the viewer of a gallery is open while the page's address names
 * one of its items (`?photo=<contentIdentifier>`), so Back closes it and a shared link opens it.
 */
export function usePhotoAddress(items: readonly ContentItem[]): PhotoAddress {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const photo = new URLSearchParams(location.search).get(PHOTO_PARAM);
  const found = hydrated && photo !== null ? items.findIndex((item) => item.contentIdentifier === photo) : -1;
  // The viewer opens in the press's own render, at once. The router renders a navigation as a
  // transition: the whole page again for the new address (the routes, the header), and the
  // viewer would show only once that is done, hundreds of milliseconds after the press on a
  // slow phone. The item opened stands until the address moves on (it names the item by then),
  // and is forgotten then, so that Back to the address it was opened from closes the viewer.
  const [opening, setOpening] = useState<{ from: string; index: number } | null>(null);
  if (opening !== null && opening.from !== location.key) setOpening(null);
  const pending = opening !== null && opening.from === location.key ? opening.index : null;

  // The address follows the opened viewer once it has painted: adding the history entry, and the
  // router's render of the new address that starts with it, would otherwise hold back the
  // viewer's first frame. Until then the push waits here: moving on in the viewer changes the
  // photo it will name, and closing the viewer calls it off.
  const pushed = useRef<ContentItem | null>(null);
  const cancelPush = useRef<(() => void) | null>(null);
  useEffect(() => () => cancelPush.current?.(), []);

  // A close already asked for steps back once, however often Escape is pressed before it lands.
  const closing = useRef(false);
  useEffect(() => {
    closing.current = false;
  }, [location.key]);

  return {
    index: pending ?? (found >= 0 ? found : null),
    open(index) {
      const item = items[index];
      if (!item) return;
      setOpening({ from: location.key, index });
      cancelPush.current?.();
      pushed.current = item;
      cancelPush.current = afterPaint(() => {
        cancelPush.current = null;
        const shown = pushed.current ?? item;
        void navigate(photoAddress(location, shown.contentIdentifier), { state: { photoViewer: true } as ViewerState });
      });
    },
    show(index) {
      const item = items[index];
      if (!item) return;
      if (cancelPush.current) pushed.current = item;
      else if (item.contentIdentifier !== photo)
        void navigate(photoAddress(location, item.contentIdentifier), { replace: true, state: location.state });
    },
    close() {
      if (cancelPush.current) {
        // Closed before the address named the photo: there is no entry to step back over.
        cancelPush.current();
        cancelPush.current = null;
        setOpening(null);
        return;
      }
      if (closing.current) return;
      closing.current = true;
      if (isViewerState(location.state)) void navigate(-1);
      else void navigate(photoAddress(location, null), { replace: true });
    },
  };
}
