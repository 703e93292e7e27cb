import { describe, expect, it } from 'vitest';
import { present, useTestApi } from './harness.js';

const t = useTestApi();

describe('message notifications', () => {
  it('pages from pageNo=0: one entry per conversation partner, more than ten in all', async () => {
    const clara = await t().as('clara');
    const first = await clara.call('getMessageNotifications', { pageNo: 0, limit: 10 });
    expect(first.body.messageNotifications).toHaveLength(10);
    expect(first.body.more).toBe(true);
    expect(first.body.messageNotifications[0]).toEqual({
      // nora has no picture: the header falls back to the generic one.
      profileName: 'nora',
      name: 'Nora Newcomer',
      profilePicture: null,
      content: expect.any(String),
      status: 'NEW',
      timestamp: expect.any(String),
    });
    const second = await clara.call('getMessageNotifications', { pageNo: 1, limit: 10 });
    expect(second.body.messageNotifications).toHaveLength(2);
    expect(second.body.more).toBe(false);
  });

  it('clearNewMessageNotifications turns NEW into UNREAD', async () => {
    const max = await t().as('max');
    expect((await max.call('clearNewMessageNotifications')).body).toEqual({ updated: 1 });
    const [entry] = (await max.call('getMessageNotifications', { pageNo: 0 })).body.messageNotifications;
    expect(entry).toMatchObject({ profileName: 'mia', status: 'UNREAD' });
  });
});

describe('chat', () => {
  it('reading a conversation answers it and changes nothing; opening it marks it READ and opens the window', async () => {
    const clara = await t().as('clara');
    const statusOfMia = async () =>
      present(
        (await clara.call('getMessageNotifications', { pageNo: 0, limit: 50 })).body.messageNotifications.find(
          (m) => m.profileName === 'mia',
        ),
        "mia's entry",
      ).status;
    const res = await clara.call('getChatMessages', { profileName: 'mia' });
    expect(res.status).toBe(200);
    expect(res.body.contact).toMatchObject({ profileName: 'mia', username: 'Mia Lens' });
    expect(res.body.messages.map((m: { fromProfileName: string }) => m.fromProfileName)).toEqual(['clara', 'mia']);
    expect(await statusOfMia()).not.toBe('READ');
    expect((await clara.call('getOpenChats')).body.chats).toEqual([]);
    expect((await clara.call('openChat', { profileName: 'mia' })).body).toEqual({ opened: 'mia' });
    expect(await statusOfMia()).toBe('READ');
    expect((await clara.call('getOpenChats')).body.chats.map((c: { profileName: string }) => c.profileName)).toEqual([
      'mia',
    ]);
  });

  it('closeChat removes the window', async () => {
    const clara = await t().as('clara');
    await clara.call('openChat', { profileName: 'leo' });
    expect((await clara.call('closeChat', { profileName: 'leo' })).body).toEqual({ closed: 'leo' });
    const open = (await clara.call('getOpenChats')).body.chats.map((c: { profileName: string }) => c.profileName);
    expect(open).not.toContain('leo');
  });

  it("sending replaces the recipient's older entry from the same sender with a NEW one", async () => {
    const mia = await t().as('mia');
    const sent = await mia.call('sendChatMessage', { profileName: 'clara', content: 'Photos are ready!' });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toMatchObject({
      fromProfileName: 'mia',
      toProfileName: 'clara',
      content: 'Photos are ready!',
    });
    const clara = await t().as('clara');
    const list = (await clara.call('getMessageNotifications', { pageNo: 0, limit: 50 })).body.messageNotifications;
    const fromMia = list.filter((m: { profileName: string }) => m.profileName === 'mia');
    expect(fromMia).toHaveLength(1);
    expect(fromMia[0]).toMatchObject({ content: 'Photos are ready!', status: 'NEW' });
    expect(list.map((m) => m.profileName)[0]).toBe('mia');
  });

  it('refuses yourself, unknown profiles and empty messages', async () => {
    const dave = await t().as('dave');
    expect((await dave.call('sendChatMessage', { profileName: 'dave', content: 'hi' })).status).toBe(400);
    expect((await dave.call('sendChatMessage', { profileName: 'ghost', content: 'hi' })).status).toBe(404);
    expect((await dave.call('sendChatMessage', { profileName: 'mia', content: '   ' })).body.field).toBe('content');
    expect((await dave.call('closeChat', { profileName: 'ghost' })).status).toBe(404);
    expect((await t().client().call('getChatMessages', { profileName: 'mia' })).status).toBe(401);
  });
});
