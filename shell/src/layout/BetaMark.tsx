import styled from 'styled-components';
import { theme } from '@marketplace/shared';

/**
 * The product is marked Beta (SPEC.md section 1): in the footer, in the page's flow. Fixed over
 * the page, it covered card titles and avatars on a phone.
 */
export const BetaMark = styled.span.attrs({ children: 'Beta', 'aria-label': 'This site is in beta' })`
  align-self: center;
  padding: 2px 8px;
  border-radius: 10px;
  background: ${theme.colors.warning};
  color: #fff;
  font-size: 12px;
  font-weight: 600;
`;
