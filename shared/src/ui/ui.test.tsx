import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Avatar, DEFAULT_AVATAR } from './Avatar.js';
import { Badge, formatBadgeCount } from './Badge.js';
import { Dropdown } from './Dropdown.js';
import { Modal } from './Modal.js';
import { QueryState } from './QueryState.js';

describe('Badge', () => {
  it("shows nothing at zero, the count up to nine, and '10+' above nine", () => {
    expect([0, 1, 9, 10, 250].map(formatBadgeCount)).toEqual(['', '1', '9', '10+', '10+']);
    render(<Badge count={12} label="new notifications" />);
    expect(screen.getByRole('status', { name: '10+ new notifications' })).toHaveTextContent('10+');
  });
});

describe('Avatar', () => {
  it('falls back to the generic picture when the picture is missing or broken', () => {
    const { rerender } = render(<Avatar src={null} name="Nora" />);
    expect(screen.getByAltText('Nora')).toHaveAttribute('src', DEFAULT_AVATAR);
    rerender(<Avatar src="https://files.test/a.png" name="Mia" />);
    const img = screen.getByAltText('Mia');
    expect(img).toHaveAttribute('src', 'https://files.test/a.png');
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', DEFAULT_AVATAR);
  });

  it('never uses a javascript: URL as a picture', () => {
    render(<Avatar src="javascript:alert(1)" name="X" />);
    expect(screen.getByAltText('X')).toHaveAttribute('src', DEFAULT_AVATAR);
  });
});

function ModalHarness({ mandatory = false }: { mandatory?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      {open && (
        <Modal title="Contact Us" onClose={mandatory ? undefined : () => setOpen(false)}>
          <input aria-label="Name" />
          <button>Send</button>
        </Modal>
      )}
    </>
  );
}

describe('Modal', () => {
  it('locks page scrolling while open, moves focus in and returns it on close', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Contact Us' })).toHaveAttribute('aria-modal', 'true');
    expect(document.body.style.overflow).toBe('hidden');
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.style.overflow).toBe('');
    expect(opener).toHaveFocus();
  });

  it('keeps Tab inside the dialog', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    await user.tab();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
    await user.tab();
    expect(screen.getByLabelText('Name')).toHaveFocus();
  });

  it('moves focus in once the dialog has painted, and gives it back even when closed before that', async () => {
    render(<ModalHarness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    // The press opening it only paints it: focusing would make the browser lay the page out first.
    act(() => opener.click());
    expect(opener).toHaveFocus();
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Escape' });
    expect(opener).toHaveFocus();

    // The frames and timers are the test's: past the latest the work after a paint may wait (a
    // second), nothing pulls focus away from where it went back.
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'] });
    try {
      act(() => opener.click());
      fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(opener).toHaveFocus();
      act(() => vi.advanceTimersByTime(2000));
    } finally {
      vi.useRealTimers();
    }
    expect(opener).toHaveFocus();
  });

  it('cannot be dismissed when mandatory', async () => {
    const user = userEvent.setup();
    render(<ModalHarness mandatory />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('Dropdown', () => {
  it('opens from its toggle, calls onOpen, and closes on Escape and on a click elsewhere', async () => {
    const user = userEvent.setup();
    let opened = 0;
    render(
      <>
        <Dropdown label="Notifications" trigger="bell" onOpen={() => opened++}>
          {() => <p>No notifications</p>}
        </Dropdown>
        <p>elsewhere</p>
      </>,
    );
    const toggle = screen.getByRole('button', { name: 'Notifications' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('No notifications')).toBeInTheDocument();
    expect(opened).toBe(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByText('No notifications')).toBeNull();
    expect(toggle).toHaveFocus();
    await user.click(toggle);
    await user.click(screen.getByText('elsewhere'));
    expect(screen.queryByText('No notifications')).toBeNull();
  });
});

describe('QueryState', () => {
  it('shows loading, then the error (a text or one made from the error), the empty text, or the content', () => {
    const { rerender } = render(
      <QueryState isLoading error={null}>
        content
      </QueryState>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    rerender(
      <QueryState isLoading={false} error={new Error('Needs the MEDIA role')} errorText={(e) => (e as Error).message}>
        content
      </QueryState>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Needs the MEDIA role');
    rerender(
      <QueryState isLoading={false} error={new Error('x')}>
        content
      </QueryState>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('This could not be loaded. Please try again.');
    rerender(
      <QueryState isLoading={false} error={null} empty emptyText="No events yet.">
        content
      </QueryState>,
    );
    expect(screen.getByText('No events yet.')).toBeInTheDocument();
    rerender(
      <QueryState isLoading={false} error={null}>
        content
      </QueryState>,
    );
    expect(screen.getByText('content')).toBeInTheDocument();
  });
});
