import { http, HttpResponse, type JsonBodyType } from 'msw';
import { MemoryRouter, Route, Routes, useLocation, type Role } from '@marketplace/shared';
import { renderWithSession, testSessionStore, useMswServer } from '@marketplace/shared/test-utils';
import { chatStore } from '../chat/chatStore.js';
import { HeaderBar } from '../header/HeaderBar.js';

export const API = 'http://api.test/v2';

/** Every request the header sent, in order: method, path, query and (for posts) the body. */
export interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}
export const sent: SentRequest[] = [];
export const sentTo = (path: string) => sent.filter((r) => r.path === `/v2${path}`);

const ok = (body: JsonBodyType) => () => HttpResponse.json(body);

/** The calls a logged-in header makes on its own, answered with empty data (listening during each test file that imports this). */
export const server = useMswServer(
  http.get(`${API}/notifications`, ok({ notifications: [], more: false })),
  http.get(`${API}/messageNotifications`, ok({ messageNotifications: [], more: false })),
  http.get(`${API}/chat/open`, ok({ chats: [] })),
  http.post(`${API}/clearNewNotifications`, ok({ updated: 0 })),
  http.post(`${API}/clearNewMessageNotifications`, ok({ updated: 0 })),
  http.post(`${API}/updateNotificationStatus`, ok({})),
  http.post(`${API}/deleteNotification`, ok({ deleted: 1 })),
  http.get(
    `${API}/notifications/all`,
    ok({ notifications: [], nextCursor: null, counts: { total: 0, new: 0, unread: 0 } }),
  ),
  http.post(`${API}/notifications/markAllRead`, ok({ updated: 0 })),
  http.post(`${API}/closeChat`, ok({ closed: '' })),
  http.post(`${API}/chat/openChat`, ok({ opened: '' })),
  http.get(`${API}/search`, ok({ searchResults: [] })),
);
server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  const entry: SentRequest = { method: request.method, path: url.pathname, query: url.searchParams, body: '' };
  sent.push(entry);
  if (request.method !== 'GET')
    void request
      .clone()
      .text()
      .then((text) => (entry.body = text));
});

/** The session of the test under way, a visitor's until told otherwise: every header it renders reads it. */
let session = testSessionStore();
export const testSession = () => session;

export function resetHarness() {
  server.resetHandlers();
  sent.length = 0;
  chatStore.getState().reset();
  session = testSessionStore();
}

export const logInAs = (roles: Role[] = [], profilePicture: string | null = null) =>
  session.setState({ isLoggedIn: true, user: { roles, profileName: 'nora', username: 'Nora', profilePicture } });

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}

/** The header as the shell mounts it, at `path`, with the current location shown under it. */
export const renderHeader = (path = '/events') =>
  renderWithSession(
    <MemoryRouter initialEntries={[path]}>
      <HeaderBar />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
    { store: session },
  );
