import { federatedApp } from 'build-preset';

// Exposes every component in src/exposes (build-preset: exposesOf).
export default federatedApp(import.meta.dirname);
