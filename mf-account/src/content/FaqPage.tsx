import styled from 'styled-components';
import { PageLayout, theme } from '@marketplace/shared';

const FAQ: [string, string][] = [
  [
    'How do I buy photos from an event?',
    'Open the event from Events, pick the photos or videos you like, add them to your cart and check out from the cart.',
  ],
  [
    'How do I book a photographer for my event?',
    'Visit a photographer’s page and choose one of their media packages. Your order then appears under Orders in your profile menu.',
  ],
  [
    'What do the order steps mean?',
    'Order Placed, Requirements Needed, Awaiting Approval, Pending Fulfillments and Delivered show where your order is. The current step is orange; finished steps are green.',
  ],
  [
    'Can I cancel an order?',
    'Yes, as the client, until it is delivered: open the order and choose cancel. The photographer is told at once.',
  ],
  [
    'Can I share an order with someone?',
    'Yes: share the order’s link with its sharing id. People you share it with can view and download, but not change it.',
  ],
  [
    'Why must I pick a role?',
    'Roles decide what you can offer: Media for photographers and videographers, Driver for transport. You can change them later.',
  ],
];

/** Each question opens its answer; the question is a click target of a comfortable size (at least 24 px high, WCAG 2.5.8). */
const Question = styled.details`
  summary {
    min-height: 24px;
    padding: ${theme.space.sm} 0;
    cursor: pointer;
  }
`;

export function FaqPage() {
  return (
    <PageLayout width="narrow">
      <h1>Frequently asked questions</h1>
      {FAQ.map(([q, a]) => (
        <Question key={q}>
          <summary>{q}</summary>
          <p>{a}</p>
        </Question>
      ))}
    </PageLayout>
  );
}
