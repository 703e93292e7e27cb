import { apiCall, statusOf } from '../api/client.js';
import { getRuntimeConfig } from '../config/runtime.js';
import { LiveChannel } from './channel.js';

/**
 * The page's one live channel, on the runtime config's broker URL, logged in with the session's
 * broker login. The API refusing a login as not logged in (401) means the session is over.
 */
export const live = new LiveChannel(
  () => getRuntimeConfig().liveUrl,
  () => apiCall('getLiveCredentials'),
  undefined,
  (error) => statusOf(error) === 401,
);
export { LiveChannel, LOGIN_RETRY_MS, type LiveKind, type LiveLogin, type MqttLike, type Connect } from './channel.js';
