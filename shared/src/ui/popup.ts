import { css } from 'styled-components';
import { theme } from './theme.js';

/** The look of everything that opens over the page from a control: dropdowns, lists, menus. */
export const popupSurface = css`
  background: ${theme.colors.background};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.12);
`;
