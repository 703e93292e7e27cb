import styled from 'styled-components';
import { theme } from '@marketplace/shared';

/** The product is marked Beta (SPEC.md section 1). */
export const BetaMark = styled.span.attrs({ children: 'Beta', 'aria-label': 'This site is in beta' })`
  position: fixed;
  bottom: 12px;
  left: 12px;
  z-index: 800;
  padding: 2px 8px;
  border-radius: 10px;
  background: ${theme.colors.warning};
  color: #fff;
  font-size: 12px;
  font-weight: 600;
`;
