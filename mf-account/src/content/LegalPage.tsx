import { PageLayout } from '@marketplace/shared';
import type { LegalDocument } from '@marketplace/shared';

const DOCUMENTS: Record<LegalDocument, { title: string; sections: [string, string][] }> = {
  'terms-of-service': {
    title: 'Terms of Service',
    sections: [
      [
        'Using the service',
        'You may browse events and posts without an account. Buying content, ordering event coverage and chatting need an account, which you keep secure.',
      ],
      [
        'Content and licences',
        'Photographers keep the copyright of their work. Buying an item gives you a personal, non-transferable licence to use it; resale needs the photographer’s written consent.',
      ],
      [
        'Orders',
        'An event order is an agreement between a client and a provider. Clients may cancel until delivery; payouts follow delivery.',
      ],
      [
        'Conduct',
        'Do not upload content you have no right to, and do not harass other users. We may suspend accounts that break these terms.',
      ],
    ],
  },
  'privacy-policy': {
    title: 'Privacy Policy',
    sections: [
      [
        'What we collect',
        'Your account details (name, profile name, email), what you buy and order, messages you send, and technical data needed to run the service.',
      ],
      [
        'Why',
        'To provide the service, to let providers fulfil orders, to prevent fraud, and to tell you about activity on your account.',
      ],
      ['Sharing', 'We share order details with the provider you order from, and nothing with advertisers.'],
      ['Your rights', 'You may see, correct or delete your data at any time from Settings or by contacting us.'],
    ],
  },
  'cookie-policy': {
    title: 'Cookie Policy',
    sections: [
      [
        'Cookies we set',
        'A session cookie keeps you logged in; a loggedIn cookie tells the pages whether you are; a loginRedirect cookie (one day) returns you where you were after logging in; a guest cart cookie keeps a visitor’s cart.',
      ],
      ['No tracking', 'We use no advertising or third-party tracking cookies.'],
      ['Control', 'You can delete cookies in your browser at any time; you will then be logged out.'],
    ],
  },
};

export function LegalPage({ document }: { document: LegalDocument }) {
  const doc = DOCUMENTS[document];
  return (
    <PageLayout width="narrow">
      <h1>{doc.title}</h1>
      {doc.sections.map(([heading, text]) => (
        <section key={heading}>
          <h2>{heading}</h2>
          <p>{text}</p>
        </section>
      ))}
    </PageLayout>
  );
}
