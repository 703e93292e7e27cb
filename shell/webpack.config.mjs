import { federatedApp } from 'build-preset';

// The host: no src/exposes; remotes are registered at run time from runtime-config.json.
export default federatedApp(import.meta.dirname, { title: 'Event media marketplace' });
