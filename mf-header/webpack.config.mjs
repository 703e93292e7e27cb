import { federatedApp } from 'build-preset';

export default federatedApp(import.meta.dirname, {
  exposes: { './Header': './src/exposes/Header.tsx' },
});
