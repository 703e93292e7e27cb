import { MOBILE_BREAKPOINT_PX } from '../constants.js';

export const theme = {
  colors: {
    text: '#1d1d1f',
    muted: '#6e6e73',
    background: '#ffffff',
    surface: '#f5f5f7',
    border: '#d2d2d7',
    primary: '#0a66c2',
    // Status colours dark enough for text and for white text on them (WCAG AA, 4.5:1 on white;
    // the axe audit in e2e/tests/a11y.spec.ts checks every page).
    success: '#137333',
    warning: '#b3540a',
    locked: '#70757a',
    danger: '#c5221f',
    backdrop: 'rgba(0, 0, 0, 0.6)',
  },
  radius: '8px',
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  /** SPEC.md section 9: the mobile layout applies at 768 px or less. */
  mobile: `@media (max-width: ${MOBILE_BREAKPOINT_PX}px)`,
} as const;

export type Theme = typeof theme;
