import mqtt from 'mqtt';
import { type LivePublisher, topicFor } from './publisher.js';

/**
 * Publishes to a broker the API does not own (docker-compose runs mosquitto). Access control
 * for browsers is then that broker's configuration; the API only publishes.
 */
export function connectExternalBroker(url: string): LivePublisher {
  const client = mqtt.connect(url, {
    username: process.env.MQTT_USERNAME,
    password: process.env.MQTT_PASSWORD,
    reconnectPeriod: 2000,
  });
  client.on('error', (err) => console.error(`[live] external broker ${url}: ${err.message}`));
  return {
    publish(kind, profileName, payload) {
      client.publish(topicFor(kind, profileName), JSON.stringify(payload), { qos: 1 });
    },
    endSession() {
      // Browser sessions on an external broker are that broker's to end.
    },
    close: () => client.endAsync().then(() => undefined),
  };
}
