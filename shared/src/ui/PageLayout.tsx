import type { HTMLAttributes, ReactNode } from 'react';
import styled from 'styled-components';

/** How wide a page's column is: forms and account pages read best narrow, galleries and orders wide. */
const PAGE_WIDTHS = { narrow: 720, wide: 1100 } as const;

const Section = styled.section<{ $maxWidth: number }>`
  max-width: ${(p) => p.$maxWidth}px;
  margin: 0 auto;
  padding: 24px;
`;

/** The one page layout every remote's pages use: a centred column with the page's padding. */
export function PageLayout({
  width = 'wide',
  children,
  ...rest
}: { width?: keyof typeof PAGE_WIDTHS; children: ReactNode } & HTMLAttributes<HTMLElement>) {
  return (
    <Section $maxWidth={PAGE_WIDTHS[width]} {...rest}>
      {children}
    </Section>
  );
}
