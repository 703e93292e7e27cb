import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MemoryRouter } from '@marketplace/shared';
import Gallery from './Gallery.js';

describe('the visual system gallery', () => {
  it('shows every shared component in its states', async () => {
    render(
      <MemoryRouter>
        <Gallery />
      </MemoryRouter>,
    );
    const part = (name: string) => screen.getByRole('region', { name });
    for (const variant of ['primary', 'secondary', 'ghost', 'link']) {
      expect(within(part('Buttons')).getByRole('button', { name: variant })).toBeEnabled();
      expect(within(part('Buttons')).getByRole('button', { name: `${variant} disabled` })).toBeDisabled();
    }
    expect(within(part('Buttons')).getByRole('button', { name: 'Previous' })).toBeInTheDocument();
    const fields = part('Fields');
    expect(within(fields).getByRole('textbox', { name: 'With an error' })).toHaveAccessibleDescription(
      'Email is invalid',
    );
    expect(within(fields).getByRole('textbox', { name: 'Disabled' })).toBeDisabled();
    expect(within(fields).getByRole('checkbox', { name: 'Checked' })).toBeChecked();
    expect(within(fields).getByLabelText('Add images')).toHaveAttribute('type', 'file');
    expect(
      within(part('Card, badge and avatar')).getByRole('status', { name: '10+ new notifications' }),
    ).toBeInTheDocument();
    const loading = part('Loading, empty and times');
    expect(within(loading).getByRole('status')).toHaveAttribute('aria-busy', 'true');
    expect(within(loading).getByText('No notifications')).toBeVisible();
    expect(await within(loading).findByText('5 minutes ago')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open a dialog' }));
    const dialog = screen.getByRole('dialog', { name: 'A dialog' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
