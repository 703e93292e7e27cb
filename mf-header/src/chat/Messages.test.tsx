import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { message } from '@marketplace/shared/test-utils';
import { requestChat } from '@marketplace/shared';
import type * as shared from '@marketplace/shared';
import { publish } from '@marketplace/shared/test-utils';
import { API, logInAs, renderHeader, resetHarness, sentTo, server, testSession } from '../test/harness.js';
import { chatStore } from './chatStore.js';
import { chatKey } from './useChat.js';

afterEach(() => {
  resetHarness();
  window.sessionStorage.clear();
});

const serveMessages = (items: shared.MessageNotification[], more = false) =>
  server.use(http.get(`${API}/messageNotifications`, () => HttpResponse.json({ messageNotifications: items, more })));

/** A conversation with `profileName` as the server keeps it; sent messages are appended. */
function serveConversation(profileName: string, history: string[] = []) {
  let id = 100;
  const messages = history.map((content) => ({
    id: id++,
    fromProfileName: profileName,
    toProfileName: 'nora',
    content,
    timestamp: '2026-11-20T10:00:00.000Z',
  }));
  server.use(
    http.get(`${API}/chat/messages`, ({ request }) =>
      new URL(request.url).searchParams.get('profileName') === profileName
        ? HttpResponse.json({
            contact: { profileName, username: profileName.toUpperCase(), profilePicture: null },
            messages,
          })
        : HttpResponse.json({ error: 'Profile not found' }, { status: 404 }),
    ),
    http.post(`${API}/chat/sendMessage`, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const sentMessage = {
        id: id++,
        fromProfileName: 'nora',
        toProfileName: form.get('profileName') ?? '',
        content: form.get('content') ?? '',
        timestamp: '2026-11-20T10:05:00.000Z',
      };
      messages.push(sentMessage);
      return HttpResponse.json({ message: sentMessage });
    }),
  );
}

const toggle = () => screen.getByRole('button', { name: /^Messages,/ });
const list = () => screen.getByRole('list', { name: 'Messages' });
const entries = () => within(list()).getAllByRole('listitem');
const badge = () => within(toggle()).queryByTestId('badge');
const windows = () => screen.queryAllByRole('region', { name: /^Chat with / });

describe('message dropdown', () => {
  it('asks the first page with pageNo=0 and limit=10, and counts NEW ones capped at 10+', async () => {
    serveMessages(Array.from({ length: 10 }, (_, i) => message(`p${i}`)));
    logInAs();
    renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('10+'));
    expect(sentTo('/messageNotifications')[0]!.query.toString()).toBe('pageNo=0&limit=10');
  });

  it("shows 'No messages to show' when there are none, also when the load fails", async () => {
    server.use(http.get(`${API}/messageNotifications`, () => HttpResponse.error()));
    logInAs();
    renderHeader();
    await userEvent.click(toggle());
    expect(await screen.findByText('No messages to show')).toBeInTheDocument();
  });

  it('on opening clears NEW on the server and locally', async () => {
    serveMessages([message('mia'), message('dave', { status: 'READ' })]);
    logInAs();
    renderHeader();
    await waitFor(() => expect(badge()).toHaveTextContent('1'));
    await userEvent.click(toggle());
    expect(entries().map((li) => li.dataset.status)).toEqual(['UNREAD', 'READ']);
    expect(badge()).toBeNull();
    await waitFor(() => expect(sentTo('/clearNewMessageNotifications')).toHaveLength(1));
  });

  it('on opening clears on the server when a NEW one may be on a later page, none being NEW here', async () => {
    serveMessages([message('dave', { status: 'UNREAD' })], true);
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: 'Messages, 0 new' });
    await userEvent.click(toggle());
    await waitFor(() => expect(sentTo('/clearNewMessageNotifications')).toHaveLength(1));
  });

  it('opening a conversation makes it READ and opens its chat window with the history', async () => {
    serveMessages([message('mia', { name: 'Mia', content: 'Are you free Saturday?' })]);
    serveConversation('mia', ['Are you free Saturday?']);
    logInAs();
    renderHeader();
    await userEvent.click(toggle());
    await userEvent.click(await screen.findByRole('button', { name: /Mia/ }));
    expect(screen.queryByRole('list', { name: 'Messages' })).toBeNull();
    const chat = await screen.findByRole('region', { name: 'Chat with Mia' });
    expect(await within(chat).findByText('Are you free Saturday?')).toBeInTheDocument();
    expect(sentTo('/chat/messages')[0]!.query.get('profileName')).toBe('mia');
    await userEvent.click(toggle());
    expect(entries()[0]).toHaveAttribute('data-status', 'READ');
  });

  it('a live chat notification replaces the older entry from the same profile, on top', async () => {
    serveMessages([
      message('dave', { content: 'First', status: 'READ' }),
      message('mia', { content: 'Old from Mia', status: 'READ' }),
    ]);
    logInAs();
    renderHeader();
    await userEvent.click(toggle());
    await screen.findByText('Old from Mia');
    publish('chatNotifications', 'nora', message('mia', { content: 'New from Mia' }));
    await screen.findByText('New from Mia');
    expect(screen.queryByText('Old from Mia')).toBeNull();
    expect(entries().map((li) => li.textContent)).toEqual([
      expect.stringContaining('New from Mia'),
      expect.stringContaining('First'),
    ]);
    expect(badge()).toHaveTextContent('1');
  });

  // Issue 40, item 3: the API's outbox delivers at least once; each chat message carries its id.
  it('counts a chat message delivered twice once: the copy does not make the conversation NEW again', async () => {
    serveMessages([message('dave', { status: 'READ' })]);
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: 'Messages, 0 new' });
    publish('chatNotifications', 'nora', message('mia', { messageId: 41, content: 'Once only' }));
    await screen.findByRole('button', { name: 'Messages, 1 new' });
    await userEvent.click(toggle());
    expect(badge()).toBeNull();
    publish('chatNotifications', 'nora', message('mia', { messageId: 41, content: 'Once only' }));
    await waitFor(() => expect(entries()).toHaveLength(2));
    expect(entries().map((li) => li.dataset.status)).toEqual(['UNREAD', 'READ']);
    expect(badge()).toBeNull();
    // The next message of the conversation is new.
    publish('chatNotifications', 'nora', message('mia', { messageId: 42, content: 'And another' }));
    await screen.findByText('And another');
    expect(badge()).toHaveTextContent('1');
  });

  it('loads further pages at 90% of the scroll height', async () => {
    server.use(
      http.get(`${API}/messageNotifications`, ({ request }) => {
        const pageNo = Number(new URL(request.url).searchParams.get('pageNo'));
        return HttpResponse.json({
          messageNotifications: Array.from({ length: 10 }, (_, i) => message(`u${pageNo}-${i}`, { status: 'READ' })),
          more: pageNo === 0,
        });
      }),
    );
    logInAs();
    renderHeader();
    await userEvent.click(toggle());
    await screen.findByText('Hello from u0-9');
    Object.defineProperty(list(), 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(list(), 'clientHeight', { configurable: true, value: 360 });
    list().scrollTop = 560;
    list().dispatchEvent(new Event('scroll'));
    await screen.findByText('Hello from u1-9');
    expect(sentTo('/messageNotifications')[1]!.query.toString()).toBe('pageNo=1&limit=10');
  });
});

describe('chat windows', () => {
  it("opens one at another remote's request (a Message button), once, and never with oneself", async () => {
    serveConversation('mia', ['Hello']);
    logInAs();
    renderHeader();
    await screen.findByRole('button', { name: /^Messages,/ });
    act(() => {
      requestChat({ profileName: 'mia', username: 'Mia', profilePicture: null });
      requestChat({ profileName: 'mia', username: 'Mia', profilePicture: null });
      requestChat({ profileName: 'nora', username: 'Nora', profilePicture: null });
    });
    const chat = await screen.findByRole('region', { name: 'Chat with Mia' });
    await within(chat).findByText('Hello');
    expect(windows()).toHaveLength(1);
  });

  it('never opens the same profile twice', async () => {
    serveMessages([message('mia', { name: 'Mia' })]);
    serveConversation('mia');
    logInAs();
    renderHeader();
    for (let i = 0; i < 2; i++) {
      await userEvent.click(toggle());
      await userEvent.click(await within(list()).findByRole('button', { name: /Mia/ }));
    }
    await screen.findByRole('region', { name: 'Chat with Mia' });
    expect(windows()).toHaveLength(1);
    expect(chatStore.getState().chats).toHaveLength(1);
  });

  it('closing removes the window and calls closeChat', async () => {
    serveConversation('mia');
    logInAs();
    renderHeader();
    chatStore.getState().open({ profileName: 'mia', username: 'Mia', profilePicture: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Close chat with Mia' }));
    expect(windows()).toHaveLength(0);
    await waitFor(() => expect(sentTo('/closeChat')[0]?.body).toBe('profileName=mia'));
  });

  it('sends a message and shows it in the conversation', async () => {
    serveConversation('mia', ['Hi Nora']);
    logInAs();
    renderHeader();
    chatStore.getState().open({ profileName: 'mia', username: 'Mia', profilePicture: null });
    const chat = await screen.findByRole('region', { name: 'Chat with Mia' });
    await within(chat).findByText('Hi Nora');
    const input = within(chat).getByRole('textbox', { name: 'Message to Mia' });
    expect(within(chat).getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.type(input, 'See you at 6{Enter}');
    const mine = await within(chat).findByText('See you at 6');
    expect(mine.closest('li')).toHaveAttribute('data-mine', 'true');
    expect(within(chat).getByText('Hi Nora').closest('li')).toHaveAttribute('data-mine', 'false');
    expect(input).toHaveValue('');
    expect(sentTo('/chat/sendMessage')[0]?.body).toBe('profileName=mia&content=See+you+at+6');
    // Sending is not reading: the server was told once, when the window opened.
    await act(async () => {});
    expect(sentTo('/chat/openChat')).toHaveLength(1);
  });

  it('keeps the draft and says so when sending fails', async () => {
    serveConversation('mia');
    server.use(http.post(`${API}/chat/sendMessage`, () => HttpResponse.json({ error: 'down' }, { status: 503 })));
    logInAs();
    renderHeader();
    chatStore.getState().open({ profileName: 'mia', username: 'Mia', profilePicture: null });
    const chat = await screen.findByRole('region', { name: 'Chat with Mia' });
    await userEvent.type(within(chat).getByRole('textbox', { name: 'Message to Mia' }), 'Important{Enter}');
    expect(await within(chat).findByRole('alert')).toHaveTextContent('Message not sent');
    expect(within(chat).getByRole('textbox')).toHaveValue('Important');
  });

  it('a live message from an open conversation reloads it and counts as read', async () => {
    serveConversation('mia', ['One']);
    logInAs();
    renderHeader();
    chatStore.getState().open({ profileName: 'mia', username: 'Mia', profilePicture: null });
    const chat = await screen.findByRole('region', { name: 'Chat with Mia' });
    await within(chat).findByText('One');
    await waitFor(() => expect(sentTo('/messageNotifications')).toHaveLength(1));
    publish('chatNotifications', 'nora', message('mia', { content: 'One' }));
    await waitFor(() => expect(sentTo('/chat/messages')).toHaveLength(2));
    // Read again: the server is told it is read again.
    await waitFor(() => expect(sentTo('/chat/openChat')).toHaveLength(2));
    expect(badge()).toBeNull();
  });

  it('tells the server a conversation is read each time its window opens, also when its messages come from the cache', async () => {
    serveConversation('mia', ['One']);
    logInAs();
    const { client } = renderHeader();
    // Fresh for a while, as the app's query client keeps data (shared createQueryClient).
    client.setQueryDefaults(chatKey('mia'), { staleTime: 60_000 });
    const mia = { profileName: 'mia', username: 'Mia', profilePicture: null };
    chatStore.getState().open(mia);
    await within(await screen.findByRole('region', { name: 'Chat with Mia' })).findByText('One');
    await waitFor(() => expect(sentTo('/chat/openChat')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Close chat with Mia' }));
    chatStore.getState().open(mia);
    await within(await screen.findByRole('region', { name: 'Chat with Mia' })).findByText('One');
    await waitFor(() => expect(sentTo('/chat/openChat')).toHaveLength(2));
    // Read from the cache the second time: reading alone would not have told the server.
    expect(sentTo('/chat/messages')).toHaveLength(1);
    expect(sentTo('/chat/openChat').map((r) => r.body)).toEqual(['profileName=mia', 'profileName=mia']);
  });

  it('brings back the windows the server still has open', async () => {
    server.use(
      http.get(`${API}/chat/open`, () =>
        HttpResponse.json({ chats: [{ profileName: 'mia', username: 'Mia', profilePicture: null }] }),
      ),
    );
    serveConversation('mia');
    logInAs();
    renderHeader();
    expect(await screen.findByRole('region', { name: 'Chat with Mia' })).toBeInTheDocument();
  });

  it('are gone after logout', async () => {
    serveConversation('mia');
    server.use(http.post(`${API}/logout`, () => HttpResponse.json({ loggedOut: true })));
    logInAs();
    renderHeader();
    chatStore.getState().open({ profileName: 'mia', username: 'Mia', profilePicture: null });
    await screen.findByRole('region', { name: 'Chat with Mia' });
    await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await screen.findByRole('button', { name: 'Log in' });
    expect(windows()).toHaveLength(0);
    expect(chatStore.getState().chats).toHaveLength(0);
  });
});

describe('chat drafts through a remount (the shell switching the header to another version)', () => {
  const contact = (profileName: string) => ({ profileName, username: profileName.toUpperCase(), profilePicture: null });

  /** The server keeps these windows open, so a new mount brings them back; sends answer once `sendHeld` resolves. */
  function serveOpenChats(profileNames: string[], sendHeld?: Promise<void>) {
    server.use(
      http.get(`${API}/chat/open`, () => HttpResponse.json({ chats: profileNames.map(contact) })),
      http.get(`${API}/chat/messages`, ({ request }) =>
        HttpResponse.json({
          contact: contact(new URL(request.url).searchParams.get('profileName') ?? ''),
          messages: [],
        }),
      ),
      http.post(`${API}/chat/sendMessage`, async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        await sendHeld;
        return HttpResponse.json({
          message: {
            id: 1,
            fromProfileName: 'nora',
            toProfileName: form.get('profileName') ?? '',
            content: form.get('content') ?? '',
            timestamp: '2026-11-20T10:05:00.000Z',
          },
        });
      }),
    );
  }

  const draftTo = async (name: string) => {
    const chat = await screen.findByRole('region', { name: `Chat with ${name}` });
    return within(chat).getByRole('textbox', { name: `Message to ${name}` });
  };

  it('keeps the draft typed in a chat', async () => {
    serveOpenChats(['mia']);
    logInAs();
    const first = renderHeader();
    await userEvent.type(await draftTo('MIA'), 'See you at');
    first.unmount();
    renderHeader();
    expect(await draftTo('MIA')).toHaveValue('See you at');
  });

  it("keeps each chat's draft to itself", async () => {
    serveOpenChats(['mia', 'dave']);
    logInAs();
    const first = renderHeader();
    await userEvent.type(await draftTo('MIA'), 'For Mia');
    expect(await draftTo('DAVE')).toHaveValue('');
    await userEvent.type(await draftTo('DAVE'), 'For Dave');
    first.unmount();
    renderHeader();
    expect(await draftTo('MIA')).toHaveValue('For Mia');
    expect(await draftTo('DAVE')).toHaveValue('For Dave');
  });

  it('forgets a sent message', async () => {
    serveOpenChats(['mia']);
    logInAs();
    const first = renderHeader();
    await userEvent.type(await draftTo('MIA'), 'See you at 6{Enter}');
    await screen.findByText('See you at 6');
    expect(await draftTo('MIA')).toHaveValue('');
    first.unmount();
    renderHeader();
    expect(await draftTo('MIA')).toHaveValue('');
  });

  it('forgets a message whose send ends after the remount', async () => {
    let answerSend!: () => void;
    serveOpenChats(['mia'], new Promise<void>((resolve) => (answerSend = resolve)));
    logInAs();
    const first = renderHeader();
    await userEvent.type(await draftTo('MIA'), 'In flight{Enter}');
    await waitFor(() => expect(sentTo('/chat/sendMessage')).toHaveLength(1));
    first.unmount();
    renderHeader();
    expect(await draftTo('MIA')).toHaveValue('In flight');
    answerSend();
    await waitFor(async () => expect(await draftTo('MIA')).toHaveValue(''));
  });

  it("never shows one user's draft to another who logs in in the same tab", async () => {
    serveOpenChats(['mia']);
    logInAs();
    const first = renderHeader();
    await userEvent.type(await draftTo('MIA'), 'From Nora');
    first.unmount();
    testSession().setState({
      isLoggedIn: true,
      user: { roles: [], profileName: 'olle', username: 'Olle', profilePicture: null },
    });
    renderHeader();
    expect(await draftTo('MIA')).toHaveValue('');
  });
});
