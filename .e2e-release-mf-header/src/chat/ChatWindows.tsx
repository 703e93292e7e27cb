import { useEffect, useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import { useStore } from 'zustand';
import {
  apiCall,
  Avatar,
  Button,
  IconButton,
  OPEN_CHAT_EVENT,
  Skeleton,
  TextField,
  theme,
  Time,
  useKeptDraft,
  useSession,
  VisuallyHidden,
  type ChatWindowEntry,
} from '@marketplace/shared';
import { chatStore } from './chatStore.js';
import { useChat } from './useChat.js';

const Dock = styled.div`
  position: fixed;
  right: 16px;
  bottom: 0;
  display: flex;
  flex-direction: row-reverse;
  align-items: flex-end;
  gap: 12px;
  z-index: 800;
  max-width: calc(100vw - 32px);
  overflow-x: auto;
`;

const Window = styled.section`
  width: 300px;
  max-width: calc(100vw - 32px);
  display: flex;
  flex-direction: column;
  background: ${theme.colors.background};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius} ${theme.radius} 0 0;
  box-shadow: 0 -4px 16px rgba(0, 0, 0, 0.12);
  header {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 8px 10px;
    border-bottom: 1px solid ${theme.colors.border};
    font-weight: 600;
  }
  header h2 {
    flex: 1;
    margin: 0;
    font-size: 14px;
  }
  ol {
    list-style: none;
    margin: 0;
    padding: 8px 10px;
    height: 260px;
    overflow-y: auto;
    display: flex;
    flex-direction: column;
    gap: 6px;
  }
  li {
    max-width: 80%;
    padding: 6px 10px;
    border-radius: 12px;
    background: ${theme.colors.surface};
    align-self: flex-start;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  li time {
    display: block;
    margin-top: 2px;
    font-size: 11px;
  }
  li[data-mine='true'] {
    align-self: flex-end;
    background: ${theme.colors.primary};
    color: #fff;
  }
  li[data-mine='true'] time {
    color: inherit;
  }
  li.placeholder {
    background: none;
    padding: 0;
    max-width: none;
    width: 60%;
  }
  li.placeholder:nth-child(even) {
    align-self: flex-end;
  }
  .note {
    color: ${theme.colors.muted};
    background: none;
  }
  form {
    display: flex;
    gap: 6px;
    padding: 8px 10px;
    border-top: 1px solid ${theme.colors.border};
  }
  form > :first-child {
    flex: 1;
    min-width: 0;
  }
  [role='alert'] {
    margin: 0;
    padding: 0 10px 8px;
    color: ${theme.colors.danger};
    font-size: 13px;
  }
`;

/** The open chat windows of the logged-in user, docked at the bottom right (SPEC.md section 4). */
export function ChatWindows() {
  const profileName = useSession((s) => s.user?.profileName);
  const chats = useStore(chatStore, (s) => s.chats);

  // Windows belong to the user: forget them at logout, and bring back the ones the server still
  // has open from an earlier visit.
  useEffect(() => {
    chatStore.getState().reset();
    if (!profileName) return;
    let current = true;
    apiCall('getOpenChats').then(
      ({ chats: open }) => current && open.forEach((c) => chatStore.getState().open(c)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [profileName]);

  // Another remote's "Message" button (requestChat) opens a window here.
  useEffect(() => {
    if (!profileName) return;
    const open = (event: Event) => {
      const entry = (event as CustomEvent<ChatWindowEntry>).detail;
      if (entry && entry.profileName !== profileName) chatStore.getState().open(entry);
    };
    window.addEventListener(OPEN_CHAT_EVENT, open);
    return () => window.removeEventListener(OPEN_CHAT_EVENT, open);
  }, [profileName]);

  if (!profileName || chats.length === 0) return null;
  return (
    <Dock>
      {chats.map((c) => (
        <ChatWindow key={c.profileName} contact={c} self={profileName} />
      ))}
    </Dock>
  );
}

function ChatWindow({ contact, self }: { contact: ChatWindowEntry; self: string }) {
  const { conversation, send } = useChat(contact.profileName);
  // Kept through a remount (the shell switching the header to another version); one per user and
  // contact, so it never shows in another conversation or to whoever logs in next in this tab.
  const [draft, setDraft, clearDraft] = useKeptDraft(`chat:${self}:${contact.profileName}`);
  const log = useRef<HTMLOListElement>(null);
  const messages = conversation.data?.messages ?? [];

  // Keep the newest message in view.
  useEffect(() => {
    log.current?.scrollTo?.({ top: log.current.scrollHeight });
  }, [messages.length]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const content = draft.trim();
    if (!content || send.isPending) return;
    // The draft stays until the server has the message, so a failed send loses nothing. Cleared
    // from the promise, not mutate's onSuccess, which is skipped once this window has unmounted:
    // a message sent just before a remount must not come back as a draft.
    send.mutateAsync(content).then(clearDraft, () => undefined);
  };

  return (
    <Window aria-label={`Chat with ${contact.username}`}>
      <header>
        <Avatar src={contact.profilePicture} name={contact.username} size={24} />
        <h2>{contact.username}</h2>
        <IconButton
          label={`Close chat with ${contact.username}`}
          size={28}
          onClick={() => chatStore.getState().close(contact.profileName)}
        >
          ×
        </IconButton>
      </header>
      <ol ref={log} aria-live="polite" aria-label={`Conversation with ${contact.username}`}>
        {conversation.isPending && (
          <li className="note">
            <VisuallyHidden>Loading…</VisuallyHidden>
          </li>
        )}
        {conversation.isPending &&
          [0, 1, 2].map((i) => (
            <li key={`loading-${i}`} className="placeholder" aria-hidden="true">
              <Skeleton height={30} shape="block" />
            </li>
          ))}
        {conversation.isError && <li className="note">This conversation could not be loaded</li>}
        {conversation.isSuccess && messages.length === 0 && <li className="note">No messages yet</li>}
        {messages.map((m) => (
          <li key={m.id} data-mine={m.fromProfileName === self}>
            <span>{m.content}</span>
            <Time iso={m.timestamp} />
          </li>
        ))}
      </ol>
      {send.isError && <p role="alert">Message not sent, try again</p>}
      <form onSubmit={submit}>
        <TextField
          label={`Message to ${contact.username}`}
          hideLabel
          value={draft}
          maxLength={2000}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button variant="primary" type="submit" disabled={!draft.trim() || send.isPending}>
          Send
        </Button>
      </form>
    </Window>
  );
}
