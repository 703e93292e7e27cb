import { Suspense, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  Button,
  pageAt,
  PageLayout,
  PageSkeleton,
  Skeleton,
  theme,
  useLocation,
  VisuallyHidden,
  type ExposedName,
  type ExposedProps,
  type RemoteName,
} from '@marketplace/shared';
import { reportRemoteUse, reportSlotFailure } from '../telemetry/telemetry.js';
import { SLOT_ATTRIBUTE } from '../telemetry/attribution.js';
import { remoteGenerations } from './generations.js';
import { checkForRollbacks } from './rollbacks.js';
import { SlotSettled } from './pageStart.js';
import { PreloadedSlots, type SlotComponent } from './preloaded.js';
import { SlotBoundary } from './SlotBoundary.js';
import { failureKind, loadExposed, loadWithin, REMOTE_LOAD_TIMEOUT_MS, type Loader } from './registry.js';

const Box = styled.div`
  margin: 12px;
  padding: 12px 16px;
  border: 1px dashed ${theme.colors.border};
  border-radius: ${theme.radius};
  color: ${theme.colors.muted};
  font-size: 14px;
  display: flex;
  gap: 12px;
  align-items: center;
`;

function Fallback({ label, remote, onRetry }: { label: string; remote: RemoteName; onRetry: () => void }) {
  return (
    <Box role="alert" data-testid={`slot-fallback-${remote}`}>
      <span>{label} is unavailable right now.</span>
      <Button size="small" onClick={onRetry}>
        Retry
      </Button>
    </Box>
  );
}

/**
 * What a slot shows while its remote's code loads, shaped like what will replace it: a bar the
 * header's height, a page's title and text, or (an overlay) nothing to see. Screen readers hear
 * "Loading The header…".
 */
export type SlotPlaceholder = 'header' | 'page' | 'overlay';

const HeaderBar = styled.div`
  display: flex;
  align-items: center;
  gap: ${theme.space.xl};
  height: ${theme.header.height};
  padding: 0 ${theme.space.xl};
  border-bottom: 1px solid ${theme.colors.border};
  ${theme.mobile} {
    height: ${theme.header.mobileHeight};
  }
  /* A compact header (log in, sign up, legal pages) is the logo alone. */
  &[data-compact='true'] {
    height: ${theme.header.compactHeight};
  }
`;

function Loading({ label, remote, placeholder }: { label: string; remote: RemoteName; placeholder: SlotPlaceholder }) {
  const { pathname } = useLocation();
  return (
    <div role="status" aria-busy="true" data-testid={`slot-loading-${remote}`}>
      <VisuallyHidden>Loading {label}…</VisuallyHidden>
      {placeholder === 'header' && (
        <HeaderBar data-compact={pageAt(pathname)?.header === 'compact'}>
          <Skeleton width={110} height={20} />
          <Skeleton width={120} height={16} />
        </HeaderBar>
      )}
      {placeholder === 'page' && (
        <PageLayout>
          <PageSkeleton />
        </PageLayout>
      )}
    </div>
  );
}

/**
 * Every slot's root names its remote (SLOT_ATTRIBUTE), so an element of the page can be traced
 * to the remote that rendered it (the real-user beacon's LCP element, slow interaction and largest
 * shift). It lays nothing out: its children are laid out as if it were not there.
 */
const SlotRoot = styled.div`
  display: contents;
`;

type SlotState = { status: 'loading' } | { status: 'ready'; Component: SlotComponent } | { status: 'failed' };

export interface RemoteSlotProps<R extends RemoteName, M extends ExposedName<R>> {
  remote: R;
  module: M;
  /** What the slot holds, for its loading and fallback text ("The header", "This page"). */
  label: string;
  props: ExposedProps<R, M>;
  /** What shows while the code loads (the page's shape by default). */
  placeholder?: SlotPlaceholder;
  /** Injected by tests; the registry's loader otherwise. */
  loader?: Loader;
  timeoutMs?: number;
}

/**
 * One remote module in the page: loading state, load timeout, error boundary, and a small
 * fallback with Retry. A failed slot also retries by itself when the user navigates, so a
 * remote that comes back is picked up without a full reload. Nothing outside the slot fails.
 */
export function RemoteSlot<R extends RemoteName, M extends ExposedName<R>>({
  remote,
  module,
  label,
  props,
  placeholder = 'page',
  loader = loadExposed,
  timeoutMs = REMOTE_LOAD_TIMEOUT_MS,
}: RemoteSlotProps<R, M>) {
  const location = useLocation();
  const [attempt, setAttempt] = useState(0);
  // Moves on when the page switches this remote to another version (a rollback): load it again.
  const generation = useSyncExternalStore(
    remoteGenerations.subscribe,
    () => remoteGenerations.get(remote),
    () => 0,
  );
  // The module the page's server rendered this slot with (loaded before hydrating), while that version is in use.
  const preloaded = useContext(PreloadedSlots).get(`${remote}/${module}`);
  const [state, setState] = useState<SlotState>(() =>
    preloaded && generation === 0
      ? preloaded.status === 'ready'
        ? { status: 'ready', Component: preloaded.Component }
        : { status: 'failed' }
      : { status: 'loading' },
  );
  // What the page started with is reported once, as a load of the slot's own would be.
  const startedWith = useRef(state.status === 'loading' ? null : preloaded);
  const lastLocation = useRef(location.key);
  // A module that threw while rendering is fetched again on the next try, not reused.
  const threw = useRef(false);

  useEffect(() => {
    const started = startedWith.current;
    if (started) {
      // The page started with this slot's module in hand (or knowing it failed): nothing to load.
      startedWith.current = null;
      if (started.status === 'ready') reportRemoteUse(remote);
      else reportSlotFailure(remote, failureKind(started.error), started.error);
      return;
    }
    let cancelled = false;
    setState({ status: 'loading' });
    const fresh = threw.current;
    threw.current = false;
    loadWithin(remote, module, timeoutMs, { loader, fresh }).then(
      (mod) => {
        reportRemoteUse(remote);
        if (!cancelled) setState({ status: 'ready', Component: mod.default as SlotComponent });
      },
      (error: unknown) => {
        reportSlotFailure(remote, failureKind(error), error);
        if (!cancelled) setState({ status: 'failed' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [remote, module, attempt, loader, timeoutMs, generation]);

  // A load that failed is tried again when the user navigates: the remote may be back.
  useEffect(() => {
    if (lastLocation.current === location.key) return;
    lastLocation.current = location.key;
    if (state.status === 'failed' || threw.current) setAttempt((n) => n + 1);
  }, [location.key, state.status]);

  // Retry asks first whether this remote's version was rolled back: then the slot loads the
  // version browsers get now (the switch moves `generation` on), else the same one again.
  const retry = () => void checkForRollbacks({ force: true }).finally(() => setAttempt((n) => n + 1));
  const fallback = <Fallback label={label} remote={remote} onRetry={retry} />;
  const loading = <Loading label={label} remote={remote} placeholder={placeholder} />;
  const root = { [SLOT_ATTRIBUTE]: remote };
  if (state.status === 'loading') return <SlotRoot {...root}>{loading}</SlotRoot>;
  if (state.status === 'failed') return <SlotRoot {...root}>{fallback}</SlotRoot>;
  const Loaded = state.Component as (p: object) => ReactNode;
  return (
    <SlotRoot {...root}>
      <SlotBoundary
        resetKey={`${location.key}:${attempt}`}
        fallback={fallback}
        onError={(error) => {
          threw.current = true;
          reportSlotFailure(remote, 'render', error);
        }}
      >
        <Suspense fallback={loading}>
          <Loaded {...(props as object)} />
          {/* Its content is hydrated after the root's: the page waits for it (pageStart.ts). */}
          <SlotSettled id={`${remote}/${module}`} />
        </Suspense>
      </SlotBoundary>
    </SlotRoot>
  );
}
