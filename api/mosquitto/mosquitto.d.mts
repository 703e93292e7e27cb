/** Types of mosquitto.mjs for TypeScript callers (the API's broker tests, the e2e production project). */
export interface LocalBroker {
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
  restart(): Promise<void>;
}
export const MOSQUITTO_CONF: string;
export function localBrokerConfig(options: { mqttPort: number; wsPort: number; dir: string }): string;
export function startMosquitto(options: {
  mqttPort: number;
  wsPort: number;
  dir: string;
  admin: { username: string; password: string };
}): Promise<LocalBroker>;
