import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { live, NotFoundState, PageLayout, Route, Routes, useLocation, useSession } from '@marketplace/shared';
import { DownPage, SITE_IS_DOWN } from '../layout/DownPage.js';
import { Footer } from '../layout/Footer.js';
import { PageHeadAndAnnouncer } from '../layout/PageHead.js';
import { VersionOverrideMarker } from '../layout/VersionOverrideMarker.js';
import { useRootCommitted } from '../remotes/pageStart.js';
import { checkForRollbacks } from '../remotes/rollbacks.js';
import { RemoteSlot } from '../remotes/RemoteSlot.js';
import { useSessionAcrossTabs } from '../session/useSessionAcrossTabs.js';
import { useSessionCheck } from '../session/useSessionCheck.js';
import { ROUTES, routeElement } from './routes.js';

/** The visual system's gallery, in development builds only (production builds drop the import). */
const GALLERY_PATH = '/__ui';
const Gallery = process.env.NODE_ENV === 'production' ? null : lazy(() => import('../dev/Gallery.js'));

const Page = styled.div`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
`;

const Main = styled.main`
  flex: 1;
`;

function NotFound() {
  return (
    <PageLayout>
      <NotFoundState />
    </PageLayout>
  );
}

/**
 * The page asks whether a remote it runs was rolled back (remotes/rollbacks.ts): on every client
 * navigation (not the first load), when it gets focus again, and, logged in, as soon as the live
 * channel announces a rollback. An anonymous page opens no live connection for it.
 */
function useRollbackCheck(): void {
  const { key } = useLocation();
  const first = useRef(key);
  useEffect(() => {
    if (key !== first.current) void checkForRollbacks();
  }, [key]);
  useEffect(() => {
    const onFocus = () => {
      if (document.visibilityState === 'visible') void checkForRollbacks();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, []);
  const loggedIn = useSession((s) => s.isLoggedIn);
  useEffect(() => {
    if (!loggedIn) return;
    return live.subscribe('rollbacks', '', () => void checkForRollbacks({ force: true }));
  }, [loggedIn]);
}

/** The shell's layout: header slot, the route's slot, footer (with the Beta mark), a tester's version marker and global overlays. */
export function App() {
  useSessionCheck();
  useSessionAcrossTabs();
  useRollbackCheck();
  useRootCommitted();
  const [contactOpen, setContactOpen] = useState(false);
  // SPEC.md section 5: the role modal shows only to a logged-in user with zero roles.
  const needsRole = useSession((s) => s.isLoggedIn && s.user !== null && s.user.roles.length === 0);

  if (SITE_IS_DOWN) return <DownPage />;
  return (
    <Page>
      <PageHeadAndAnnouncer />
      <RemoteSlot remote="header" module="Header" label="The header" placeholder="header" props={{}} />
      <Main>
        <Routes>
          {ROUTES.map((entry) => (
            <Route key={entry.path} path={entry.path} element={routeElement(entry)} />
          ))}
          {Gallery && (
            <Route
              path={GALLERY_PATH}
              element={
                <Suspense>
                  <Gallery />
                </Suspense>
              }
            />
          )}
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Main>
      <Footer onContact={() => setContactOpen(true)} />
      <VersionOverrideMarker />
      {needsRole && (
        <RemoteSlot
          remote="account"
          module="RoleSelectionModal"
          label="Role selection"
          placeholder="overlay"
          props={{}}
        />
      )}
      {contactOpen && (
        <RemoteSlot
          remote="account"
          module="ContactModal"
          label="The contact form"
          placeholder="overlay"
          props={{ onClose: () => setContactOpen(false) }}
        />
      )}
    </Page>
  );
}
