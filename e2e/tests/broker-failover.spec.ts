import { setTimeout as sleep } from 'node:timers/promises';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { API_INTERNAL_PORTS, DEMO_PASSWORD, LIVE_URL, SHELL } from '../env.js';
import {
  brokerConnections,
  brokerNodeName,
  brokerNodes,
  followLiveSockets,
  killBrokerNode,
  type LiveSocket,
} from './broker.js';
import { logIn, notify } from './helpers.js';
import { test } from './fixtures.js';

// Issue 40, item 5, with real pages: the production project's RabbitMQ cluster (two nodes behind
// the gateway's /mqtt, supervised as docker's restart policy would) loses a node to SIGKILL while
// notifications are committed in a steady stream through both API instances. Runs in a project of
// its own after every other production test (playwright.prod.config.ts), so no other test's page
// loses its connection.

const USERS = ['zoe', 'ana'] as const;
/**
 * How long a page whose node died is waited for to connect and subscribe again through the
 * gateway (a wait, not a claim: the times are reported). The page connects again after 2 s, with
 * a fresh login and client id, and the gateway sends it to the node still up (2.1 s measured in
 * CI). With its old client id the subscribe would be refused there until the killed node was back
 * (its subscription queue names the dead node as its home: 4.2 to 6.1 s measured then), so the
 * wait leaves room for that and a slower machine.
 */
const RECONNECT_WAIT_MS = 25_000;
/** The killed node is started again a second later, boots and rejoins within this. */
const REJOIN_LIMIT_MS = 90_000;
/** One notification every STREAM_GAP_MS, alternately for each user and through each instance. */
const STREAM_GAP_MS = 150;
/**
 * How many notifications the stream commits before the kill, once every page is subscribed again,
 * and once the node is back: counted, not timed, so each phase has its share however slow the machine.
 */
const PHASE_NOTIFICATIONS = 15;
/** Pages are opened until both nodes hold some; never more than this. */
const MAX_PAGES = 8;
const KILLED = 0;

interface LivePage {
  user: (typeof USERS)[number];
  page: Page;
  sockets: LiveSocket[];
}

interface Committed {
  user: string;
  content: string;
  id: number;
  at: number;
}

/** The socket a page uses now: its last one. */
const current = (p: LivePage) => p.sockets[p.sockets.length - 1];

/**
 * The notifications of this run the page's header lists, in the order shown, after scrolling its
 * list to the end once more (which loads its next page). The scroll event is sent as well: a page
 * of entries the list holds already (live ones, shown on top) adds nothing, so the list does not
 * grow and setting the same scroll position again would fire none.
 */
async function shown(page: Page, run: string): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Notifications' });
  if (!(await list.isVisible())) await page.getByRole('button', { name: /^Notifications/ }).click();
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
    el.dispatchEvent(new Event('scroll'));
  });
  const texts = await list.locator(':scope > li .text').allTextContents();
  return texts.filter((t) => t.startsWith(run));
}

test('broker failover: one RabbitMQ node killed (SIGKILL) under a stream of notifications; pages on it reconnect through the gateway to the other, every notification shows once on each page of its user, the node rejoins', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const liveUrl = LIVE_URL ?? '';
  const run = `Failover ${Date.now().toString(36)}`;
  const cspViolations: string[] = [];
  const contexts = new Map<string, BrowserContext>();
  const pages: LivePage[] = [];

  /** A page of `user`'s: the first one logs in, the next ones share its session. */
  const openPage = async (user: LivePage['user']) => {
    let context = contexts.get(user);
    const fresh = !context;
    if (!context) {
      context = await browser.newContext();
      context.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      contexts.set(user, context);
    }
    const page = await context.newPage();
    const live: LivePage = { user, page, sockets: followLiveSockets(page) };
    if (fresh) await logIn(page, user, DEMO_PASSWORD, SHELL);
    else await page.goto(`${SHELL}/events`);
    await expect.poll(() => current(live)?.subscribedAt ?? null).not.toBeNull();
    // Whatever follows happens without a reload.
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'no reload'));
    pages.push(live);
  };
  /** Each page's node, as the cluster lists its connection (by the MQTT client id). */
  const nodesOfPages = async () => {
    const connections = await brokerConnections();
    return pages.map((p) => connections.find((c) => c.clientId === current(p)?.clientId)?.node ?? null);
  };

  try {
    // Two users with two pages each, then more until both nodes hold some (the gateway sends each
    // new connection to the node with fewer).
    for (const user of [...USERS, ...USERS]) await openPage(user);
    let nodes: (string | null)[] = [];
    for (;;) {
      await expect.poll(async () => (nodes = await nodesOfPages()).includes(null), { timeout: 15_000 }).toBe(false);
      if (new Set(nodes).size === 2 || pages.length >= MAX_PAGES) break;
      await openPage(USERS[pages.length % USERS.length] ?? 'zoe');
    }
    const killedNode = brokerNodeName(KILLED);
    expect(new Set(nodes)).toEqual(new Set([brokerNodeName(0), brokerNodeName(1)]));
    const onKilled = pages.filter((_, i) => nodes[i] === killedNode);
    const onOther = pages.filter((_, i) => nodes[i] !== killedNode);

    // The stream: committed through each instance's operator listener in turn, each notification
    // for one user, its content naming it.
    const committed: Committed[] = [];
    let streaming = true;
    let streamError: unknown = null;
    const stream = (async () => {
      for (let n = 0; streaming; n++) {
        const user = USERS[n % USERS.length] ?? 'zoe';
        const content = `${run} #${n}`;
        const port = API_INTERNAL_PORTS[n % API_INTERNAL_PORTS.length];
        const { id } = await notify(user, content, null, `http://127.0.0.1:${port}`);
        committed.push({ user, content, id, at: Date.now() });
        // Real time: the stream's pace, a load the broker and the pages meet; nothing waits on it.
        await sleep(STREAM_GAP_MS);
      }
    })().catch((error: unknown) => {
      streamError = error;
    });
    /** Until the stream has committed PHASE_NOTIFICATIONS more (or failed: then its error). */
    const phase = async () => {
      const until = committed.length + PHASE_NOTIFICATIONS;
      await expect.poll(() => streamError ?? committed.length >= until, { timeout: 30_000 }).toBe(true);
    };

    await phase();
    const socketsAtKill = new Map(pages.map((p) => [p, current(p)]));
    const killedAt = Date.now();
    killBrokerNode(KILLED);

    // Every page that was on the killed node connects again through the gateway (mqtt.js retries
    // every 2 s; the gateway passes the attempt to the node still up) and subscribes again.
    const reconnectMs: number[] = [];
    for (const p of onKilled) {
      const before = socketsAtKill.get(p);
      await expect
        .poll(() => (current(p) !== before ? (current(p)?.subscribedAt ?? null) : null), {
          timeout: RECONNECT_WAIT_MS,
        })
        .not.toBeNull();
      expect(before?.closedAt).not.toBeNull();
      expect(current(p)?.socket.url()).toBe(liveUrl);
      reconnectMs.push((current(p)?.subscribedAt ?? 0) - killedAt);
    }
    const resubscribedAt = Date.now();
    // Each reconnecting page's attempts since the kill: opened (ms after it), CONNACK, closed.
    const attempts = onKilled.map((p) =>
      p.sockets
        .filter((s) => s.openedAt >= killedAt)
        .map(
          (s) => `+${s.openedAt - killedAt} ms ${s.connack === 0 ? 'accepted' : `refused (${s.connack ?? 'closed'})`}`,
        )
        .join(', '),
    );
    // The pages on the other node kept their connection.
    for (const p of onOther) {
      expect(current(p) === socketsAtKill.get(p)).toBe(true);
      expect(current(p)?.closedAt).toBeNull();
    }

    await phase();
    // The killed node is started again (the runner, as docker's restart policy) and rejoins.
    await expect
      .poll(
        async () =>
          (await brokerNodes().catch(() => []))
            .filter((n) => n.running)
            .map((n) => n.name)
            .sort(),
        { timeout: REJOIN_LIMIT_MS, intervals: [500] },
      )
      .toEqual([brokerNodeName(0), brokerNodeName(1)]);
    const rejoinedMs = Date.now() - killedAt;
    // A little more of the stream with both nodes up again, then it stops.
    await phase();
    streaming = false;
    await stream;
    expect(streamError).toBeNull();

    const before = committed.filter((c) => c.at < killedAt).length;
    const after = committed.filter((c) => c.at >= resubscribedAt).length;
    const summary =
      `[failover] ${pages.length} pages (${onKilled.length} on ${killedNode}, ${onOther.length} on the other); ` +
      `${committed.length} notifications committed (${before} before the kill, ${after} once every page was subscribed again); ` +
      `reconnected and subscribed again through the gateway ${reconnectMs.join(', ')} ms after the kill ` +
      `(attempts: ${attempts.join('; ')}); ` +
      `both nodes running again after ${rejoinedMs} ms`;
    console.log(summary);
    test.info().annotations.push({ type: 'failover', description: summary });

    for (const p of pages) {
      const mine = committed.filter((c) => c.user === p.user);
      // Every notification of the user's shows once, in the list the header keeps without a
      // reload: those published while the page was connected arrived live, the others with the
      // list the page loads again each time it subscribes again.
      await expect
        .poll(async () => (await shown(p.page, run)).sort(), { timeout: 30_000 })
        .toEqual(mine.map((c) => c.content).sort());
      // What was committed once the page was subscribed again arrived live (at least once; the
      // page shows it once all the same).
      const live = new Set(p.sockets.flatMap((s) => s.notifications.map((n) => n.id)));
      expect(mine.filter((c) => c.at >= resubscribedAt && !live.has(c.id)).map((c) => c.content)).toEqual([]);
      expect(await p.page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no reload');
    }
    // Every page holds one connection, listed by the cluster.
    await expect
      .poll(async () => (await nodesOfPages()).every((node) => node !== null), { timeout: 15_000 })
      .toBe(true);
    expect(cspViolations).toEqual([]);
  } finally {
    for (const context of contexts.values()) await context.close();
  }
});
