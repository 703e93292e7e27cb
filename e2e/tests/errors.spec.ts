import { expect } from '@playwright/test';
import { logIn, withDatabase } from './helpers.js';
import { test } from './fixtures.js';

// SPEC.md section 8 rows that come from the data the real API serves: a picture that is gone, a
// video whose stream fails, a video still processing.

test('errors: a broken profile picture falls back to the generic image', async ({ page }) => {
  // Its source cleared too: the media job, if it had not made the picture yet, would otherwise name its own.
  withDatabase((db) =>
    db
      .prepare('UPDATE users SET profile_picture = ?, profile_picture_source = NULL WHERE profile_name = ?')
      .run('profiles/gone.png', 'zoe'),
  );
  await logIn(page, 'zoe');
  const picture = page.getByRole('button', { name: 'Profile menu' }).getByRole('img');
  await expect.poll(() => picture.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
});

test("errors: a video whose stream fails says 'Video failed to load'; one without a url yet says 'Video preview is processing'", async ({
  page,
}) => {
  withDatabase((db) => {
    // Its master playlist's address made one that is not there (its poster stays, so the stream is
    // asked for on hover only, as before: other pages showing the video ask for nothing).
    db.prepare(`UPDATE content_items SET media = replace(media, '/master.m3u8"', '/gone.m3u8"') WHERE name = ?`).run(
      'Finish line sprint',
    );
    db.prepare(
      `INSERT INTO content_items (identifier, event_id, owner_id, name, content_type, width, height, file_path, filename, stream_path, thumbnail_path, for_sale, price_cents, created_at)
       VALUES ('ci-processing', (SELECT id FROM events WHERE identifier = 'winter-gala-2026'), (SELECT id FROM users WHERE profile_name = 'ana'),
               'Rehearsal', 'video/mp4', 320, 180, 'sources/videos/rehearsal.mp4', 'rehearsal.mp4', NULL, NULL, 1, 4500, ?)`,
    ).run(new Date().toISOString());
  });
  // Its owner: a visitor is shown a video for sale's poster only, with nothing to play.
  await logIn(page, 'max');
  await page.goto('/event/city-marathon-2026');
  const card = page.getByRole('button', { name: 'Open Finish line sprint' });
  await card.hover();
  await expect(card.getByText('Video failed to load')).toBeVisible({ timeout: 15_000 });

  await page.goto('/event/winter-gala-2026');
  await expect(
    page.getByRole('button', { name: 'Open Rehearsal' }).getByText('Video preview is processing'),
  ).toBeVisible();
});
