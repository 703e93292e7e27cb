import { federatedApp } from 'build-preset';

export default federatedApp(import.meta.dirname, {
  exposes: {
    './EventsPage': './src/exposes/EventsPage.tsx',
    './EventPage': './src/exposes/EventPage.tsx',
    './CommunityPage': './src/exposes/CommunityPage.tsx',
    './CreatorPage': './src/exposes/CreatorPage.tsx',
    './CartPage': './src/exposes/CartPage.tsx',
  },
});
