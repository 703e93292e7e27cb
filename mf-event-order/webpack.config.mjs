import { federatedApp } from 'build-preset';

export default federatedApp(import.meta.dirname, {
  exposes: { './EventOrderPage': './src/exposes/EventOrderPage.tsx' },
});
