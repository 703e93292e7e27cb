import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { LIVE_TOPICS } from '@marketplace/shared/contract';
import { type LivePublisher, readableTopics, topicFor, within } from './publisher.js';

/** mosquitto's dynamic security plugin is driven by JSON commands on this topic; answers come on `/response`. */
const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
/** A command not answered in this time fails (the broker is down or not configured for dynamic security). */
const COMMAND_TIMEOUT_MS = 5000;
/** The role that lets the API publish server events. */
const PUBLISHER_ROLE = 'api-publisher';
/** Answers that mean "already so": setting up is repeated on every (re)connect, and a revoked client may be gone already. */
const ALREADY = /already exists|already has|not found/i;

type Command = { command: string } & Record<string, unknown>;
interface CommandResponse {
  command: string;
  error?: string;
  correlationData?: string;
  data?: { client?: { roles?: { rolename: string }[] } };
}

const roleOf = (profileName: string) => `user-${profileName}`;

/**
 * Publishes to a broker the API does not own (docker-compose's mosquitto), and is that broker's
 * administrator through its dynamic security plugin: each browser page gets its own client,
 * whose role may subscribe to its user's two topics only (literal topics: no wildcard matches
 * them) and publish nothing; ending a session deletes its clients, which disconnects them.
 */
export function connectExternalBroker(
  url: string,
  admin: { username: string; password: string } | null,
): LivePublisher & {
  /**
   * Settles once the API may publish: its login holds the publisher role. Giving it the role
   * disconnects every connection of that login (all instances share it), so an instance serves
   * pages only after it, and commands are not lost to that disconnect.
   */
  ready: Promise<void>;
} {
  const client = mqtt.connect(url, { username: admin?.username, password: admin?.password, reconnectPeriod: 2000 });
  const pending = new Map<string, (response: CommandResponse) => void>();
  const rolesMade = new Set<string>();
  let published: () => void = () => {};
  let mayPublish = false;
  const ready = new Promise<void>((resolve) => (published = resolve)).then(() => {
    mayPublish = true;
  });
  // Commands wait for the subscription to the answers: an answer sent before it would be lost.
  let answersHeard: () => void = () => {};
  let listening = new Promise<void>((resolve) => (answersHeard = resolve));
  client.on('close', () => {
    listening = new Promise<void>((resolve) => (answersHeard = resolve));
  });

  client.on('error', (err) => console.error(`[live] external broker ${url}: ${err.message}`));
  client.on('message', (topic, payload) => {
    if (topic !== RESPONSE_TOPIC) return;
    try {
      const { responses } = JSON.parse(payload.toString()) as { responses?: CommandResponse[] };
      for (const response of responses ?? []) {
        if (response.correlationData) pending.get(response.correlationData)?.(response);
      }
    } catch {
      // Not an answer of ours.
    }
  });

  /** Runs commands in order; rejects with the broker's reason on the first that failed for real. */
  async function run(...commands: Command[]): Promise<CommandResponse[]> {
    await Promise.race([
      listening,
      sleep(COMMAND_TIMEOUT_MS).then(() => Promise.reject(new Error('the broker cannot be reached'))),
    ]);
    const answers = commands.map((command) => {
      const correlationData = randomUUID();
      return {
        command: { ...command, correlationData },
        answer: new Promise<CommandResponse>((resolve, reject) => {
          const timer = setTimeout(() => {
            pending.delete(correlationData);
            reject(new Error(`the broker did not answer ${command.command}`));
          }, COMMAND_TIMEOUT_MS);
          pending.set(correlationData, (response) => {
            clearTimeout(timer);
            pending.delete(correlationData);
            resolve(response);
          });
        }),
      };
    });
    // Each is awaited in turn below; one that fails first must not leave the others unhandled.
    for (const { answer } of answers) answer.catch(() => {});
    client.publish(CONTROL_TOPIC, JSON.stringify({ commands: answers.map((a) => a.command) }), { qos: 1 });
    const responses: CommandResponse[] = [];
    for (const { command, answer } of answers) {
      const response = await answer;
      if (response.error && !ALREADY.test(response.error)) throw new Error(`${command.command}: ${response.error}`);
      responses.push(response);
    }
    return responses;
  }

  /** Lets the API's own login publish server events (once per broker: the plugin keeps it in its file). */
  async function allowPublishing(adminName: string): Promise<void> {
    const [found] = await run({ command: 'getClient', username: adminName });
    if (found?.data?.client?.roles?.some((r) => r.rolename === PUBLISHER_ROLE)) return published();
    await run({
      command: 'createRole',
      rolename: PUBLISHER_ROLE,
      acls: Object.values(LIVE_TOPICS).map((topic) => ({
        acltype: 'publishClientSend',
        topic: topic('#'),
        allow: true,
      })),
    });
    // Not awaited: the plugin disconnects a client whose roles change (so they apply at once),
    // which loses the answer; the reconnect then finds the role in place.
    client.publish(
      CONTROL_TOPIC,
      JSON.stringify({ commands: [{ command: 'addClientRole', username: adminName, rolename: PUBLISHER_ROLE }] }),
      { qos: 1 },
    );
  }

  // On every connect (a restarted broker keeps its dynamic security file, but a fresh one may not):
  // listen for answers and make sure the API may publish server events.
  client.on('connect', () => {
    client.subscribe(RESPONSE_TOPIC, { qos: 1 }, (err) => {
      if (err) return;
      answersHeard();
      if (!admin) published();
      else
        allowPublishing(admin.username).catch((e: unknown) =>
          console.error(`[live] cannot set up publishing on ${url}: ${e instanceof Error ? e.message : String(e)}`),
        );
    });
  });

  return {
    ready,
    publish(kind, profileName, payload) {
      client.publish(topicFor(kind, profileName), JSON.stringify(payload), { qos: 1 });
    },
    // mqtt.js calls back at the broker's PUBACK. Offline it would keep the message in memory until
    // a reconnect (lost with the process), so a broker not connected is refused here instead; and
    // before the API's login holds the publisher role the broker would acknowledge and drop it
    // (MQTT 3.1.1 has no refusal in a PUBACK).
    publishAsync(kind, profileName, json, timeoutMs) {
      if (!client.connected) return Promise.reject(new Error(`${url} is not connected`));
      if (!mayPublish) return Promise.reject(new Error(`${url}: the API may not publish there yet`));
      return within(
        client.publishAsync(topicFor(kind, profileName), json, { qos: 1 }).then(() => undefined),
        timeoutMs,
        url,
      );
    },
    async admit({ username, password, profileName }) {
      const rolename = roleOf(profileName);
      if (!rolesMade.has(rolename)) {
        await run({
          command: 'createRole',
          rolename,
          acls: readableTopics(profileName).map((topic) => ({ acltype: 'subscribeLiteral', topic, allow: true })),
        });
        rolesMade.add(rolename);
      }
      await run({ command: 'createClient', username, password, roles: [{ rolename }] });
    },
    async endSession(_token, usernames) {
      if (usernames.length > 0) await run(...usernames.map((username) => ({ command: 'deleteClient', username })));
    },
    // At once: a message still unacknowledged is in the outbox, and mqtt.js would wait for its
    // acknowledgement forever with the broker down.
    close: () => client.endAsync(true).then(() => undefined),
  };
}
