import { getRuntimeConfig } from '../config/runtime.js';
import { LiveChannel } from './channel.js';

/** The page's one live channel, on the runtime config's broker URL. */
export const live = new LiveChannel(() => getRuntimeConfig().liveUrl);
export { LiveChannel, type LiveKind, type MqttLike, type Connect } from './channel.js';
