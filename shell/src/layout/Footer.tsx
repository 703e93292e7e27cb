import styled from 'styled-components';
import { Button, Link, pageAt, PAGES, theme, useLocation } from '@marketplace/shared';
import { BetaMark } from './BetaMark.js';

const Bar = styled.footer<{ $signup: boolean }>`
  display: flex;
  flex-wrap: wrap;
  gap: 24px;
  justify-content: center;
  padding: 24px;
  border-top: 1px solid ${theme.colors.border};
  background: ${(p) => (p.$signup ? theme.colors.background : theme.colors.surface)};
  font-size: 14px;
  ${(p) => (p.$signup ? 'border-top: none; color: ' + theme.colors.muted + ';' : '')}
`;

/**
 * The shared footer (SPEC.md section 1): the Beta mark, Contact Us and Question? (/faq). A page whose footer is
 * 'signup' in the platform table has the lighter style, one whose footer is 'none' (the receipt)
 * has none; nor has any other path containing /receipt (SPEC.md section 2), page or not.
 */
export function Footer({ onContact }: { onContact: () => void }) {
  const { pathname } = useLocation();
  const footer = pageAt(pathname)?.footer;
  if (footer === 'none' || pathname.includes('/receipt')) return null;
  const signup = footer === 'signup';
  return (
    <Bar $signup={signup} data-variant={signup ? 'signup' : 'default'}>
      <BetaMark />
      <Button variant="link" onClick={onContact}>
        Contact Us
      </Button>
      <Link to={PAGES.faq.href()}>Question?</Link>
    </Bar>
  );
}
