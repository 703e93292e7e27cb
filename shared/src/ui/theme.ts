import { MOBILE_BREAKPOINT_PX } from '../constants.js';

/**
 * The platform's design tokens. Every remote styles with these (through the components in
 * shared/src/ui), so a colour or a spacing changes in one place for the whole page.
 */
export const theme = {
  colors: {
    text: '#1d1d1f',
    muted: '#6e6e73',
    background: '#ffffff',
    surface: '#f5f5f7',
    /** A surface under the pointer or pressed (menu items, ghost buttons). */
    surfaceHover: '#e8e8ed',
    border: '#d2d2d7',
    /** A control's border: darker than a card's so fields stand out (3:1 on white). */
    control: '#8e8e93',
    primary: '#0a66c2',
    primaryHover: '#0857a6',
    primaryActive: '#06478a',
    /** Unread rows in the notification and message lists. */
    highlight: '#eef4fb',
    // Status colours dark enough for text and for white text on them (WCAG AA, 4.5:1 on white;
    // the axe audit in e2e/tests/a11y.spec.ts checks every page).
    success: '#137333',
    warning: '#b3540a',
    locked: '#70757a',
    danger: '#c5221f',
    backdrop: 'rgba(0, 0, 0, 0.6)',
    /** The placeholder shapes shown while data loads. */
    skeleton: '#ececf0',
  },
  /** Spacing scale, in px: gaps and paddings use these steps only. */
  space: { xs: '4px', sm: '8px', md: '12px', lg: '16px', xl: '24px', xxl: '32px' },
  /** Type scale. */
  text: { small: '13px', body: '15px', large: '18px', title: '24px' },
  radius: '8px',
  /** Round controls: buttons, fields, chips. */
  controlRadius: '6px',
  /** Controls share one height so a button sits level with a field. */
  controlHeight: '38px',
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  /** The keyboard focus indicator of every control (shown for keyboard focus: :focus-visible). */
  focus: { outline: '2px solid #0a66c2', offset: '2px' },
  shadow: { popup: '0 8px 24px rgba(0, 0, 0, 0.12)', raised: '0 1px 3px rgba(0, 0, 0, 0.08)' },
  /**
   * The header's heights: its own bar (mf-header) holds them, and the shell's slot keeps its place
   * at the same height while the header's code loads, so the page below does not move.
   */
  header: { height: '61px', mobileHeight: '53px', compactHeight: '42px' },
  /** How a disabled control looks; it also stops reacting to the pointer. */
  disabledOpacity: 0.5,
  /** SPEC.md section 9: the mobile layout applies at 768 px or less. */
  mobile: `@media (max-width: ${MOBILE_BREAKPOINT_PX}px)`,
} as const;

export type Theme = typeof theme;
