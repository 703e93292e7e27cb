import { describe, expect, it } from 'vitest';
import * as c from './constants.js';
import { theme } from './ui/theme.js';

describe('business constants (SPEC.md section 9)', () => {
  it('hold the spec values', () => {
    expect(c).toMatchObject({
      PAGE_SIZE: 10,
      BADGE_CAP: 9,
      SCROLL_LOAD_THRESHOLD: 0.9,
      SEARCH_DEBOUNCE_MS: 100,
      MOBILE_BREAKPOINT_PX: 768,
      LOGGED_IN_COOKIE_DAYS_AT_LOGOUT: 7,
      LOGGED_IN_COOKIE_DAYS_ON_AUTH_FAILURE: 30,
      LOGIN_REDIRECT_COOKIE_DAYS: 1,
      IMAGE_COMPRESSION_LIMIT_MB: 1,
      VIDEO_HOVER_DELAY_MS: 1000,
      PLAYER_MAX_BUFFER_SECONDS: 4,
      PLAY_ICON_WIDTH_PX: 50,
      LINK_PREFETCH_MARGIN_PX: 200,
      CONTACT_MODAL_WIDTH_PX: 500,
      DATA_CACHE_TIME_MS: 300_000,
    });
  });

  it('treats a width of 768 px or less as mobile', () => {
    expect(theme.mobile).toBe('@media (max-width: 768px)');
  });
});
