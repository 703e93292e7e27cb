import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button, IconButton, PlainButton } from './Button.js';
import { Checkbox, FileField, TextField } from './Field.js';
import { QueryState } from './QueryState.js';
import { EmptyState, MenuItem, Skeleton } from './Surface.js';
import { CartIcon } from './icons.js';
import { Time } from './Time.js';
import { theme } from './theme.js';
import { absoluteTime, whenText } from './timeFormat.js';

describe('buttons', () => {
  it('never submit a form unless told to', async () => {
    const submit = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <form onSubmit={submit}>
        <Button>Plain</Button>
        <IconButton label="Close">×</IconButton>
        <PlainButton>Entry</PlainButton>
        <MenuItem>Logout</MenuItem>
        <Button type="submit" variant="primary">
          Send
        </Button>
      </form>,
    );
    for (const name of ['Plain', 'Close', 'Entry', 'Logout'])
      await userEvent.click(screen.getByRole('button', { name }));
    expect(submit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('the primary button is filled with the primary colour; a disabled one ignores clicks', async () => {
    const click = vi.fn();
    render(
      <Button variant="primary" disabled onClick={click}>
        Continue
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Continue' });
    expect(button).toHaveStyle({ background: theme.colors.primary, color: '#fff' });
    await userEvent.click(button);
    expect(click).not.toHaveBeenCalled();
  });

  it('an icon button is named by its label, not by its symbol', () => {
    render(<IconButton label="Open menu">☰</IconButton>);
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveTextContent('☰');
  });
});

describe('fields', () => {
  it('a text field is named by its label and reads its hint and error with it', () => {
    render(<TextField label="Email" name="email" hint="We never share it." error="Email is invalid" />);
    const box = screen.getByRole('textbox', { name: 'Email' });
    expect(box).toHaveAttribute('name', 'email');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('We never share it. Email is invalid');
  });

  it('a field without an error is not marked invalid; a hidden label still names it', () => {
    render(<TextField label="Search" hideLabel type="search" />);
    const box = screen.getByRole('searchbox', { name: 'Search' });
    expect(box).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Search')).toBeNull();
  });

  it('a multiline field is a text area', async () => {
    render(<TextField label="Message" multiline name="message" />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box.tagName).toBe('TEXTAREA');
    await userEvent.type(box, 'two{Enter}lines');
    expect(box).toHaveValue('two\nlines');
  });

  it('a checkbox toggles from its label', async () => {
    const change = vi.fn();
    render(<Checkbox label="Driver" onChange={(e) => change(e.target.checked)} />);
    await userEvent.click(screen.getByText('Driver'));
    expect(change).toHaveBeenCalledWith(true);
    expect(screen.getByRole('checkbox', { name: 'Driver' })).toBeChecked();
  });

  it('a file field hands over the chosen files and can take the same file again', async () => {
    const onFiles = vi.fn();
    render(<FileField label="Add images" multiple onFiles={onFiles} />);
    const input = screen.getByLabelText<HTMLInputElement>('Add images');
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    await userEvent.upload(input, file);
    expect(onFiles).toHaveBeenCalledWith([file]);
    expect(input.value).toBe('');
  });

  /** A drag of `files` as the browser describes it (jsdom has no DataTransfer). */
  const dragOf = (files: File[]) => ({ dataTransfer: { types: ['Files'], files, dropEffect: 'none' } });

  it('a file field takes files dropped on its box, which is highlighted while they are over it', () => {
    const onFiles = vi.fn();
    render(<FileField label="Add images" multiple onFiles={onFiles} />);
    const box = screen.getByText('Add images');
    const files = [
      new File(['x'], 'a.png', { type: 'image/png' }),
      new File(['y'], 'notes.txt', { type: 'text/plain' }),
    ];
    expect(fireEvent.dragEnter(box, dragOf(files))).toBe(false);
    // Cancelled, the dragover lets the box take the drop (the browser would otherwise open the file).
    expect(fireEvent.dragOver(box, dragOf(files))).toBe(false);
    expect(box).toHaveAttribute('data-dragover', 'true');
    fireEvent.dragLeave(box, { relatedTarget: document.body });
    expect(box).not.toHaveAttribute('data-dragover');
    fireEvent.dragOver(box, dragOf(files));
    expect(fireEvent.drop(box, dragOf(files))).toBe(false);
    // Every dropped file, whatever its type: the caller says why one is not taken.
    expect(onFiles).toHaveBeenCalledWith(files);
    expect(box).not.toHaveAttribute('data-dragover');
  });

  it('a file field takes one dropped file unless multiple, and leaves a drag of text alone', () => {
    const onFiles = vi.fn();
    render(<FileField label="Cover" onFiles={onFiles} />);
    const box = screen.getByText('Cover');
    const [a, b] = [new File(['x'], 'a.png', { type: 'image/png' }), new File(['y'], 'b.png', { type: 'image/png' })];
    fireEvent.drop(box, dragOf([a, b]));
    expect(onFiles).toHaveBeenCalledWith([a]);
    const text = { dataTransfer: { types: ['text/plain'], files: [], dropEffect: 'none' } };
    expect(fireEvent.dragOver(box, text)).toBe(true);
    expect(box).not.toHaveAttribute('data-dragover');
    expect(fireEvent.drop(box, text)).toBe(true);
    expect(onFiles).toHaveBeenCalledTimes(1);
  });

  it('a disabled file field takes no drop', () => {
    const onFiles = vi.fn();
    render(<FileField label="Add images" disabled onFiles={onFiles} />);
    const box = screen.getByText('Add images');
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    expect(fireEvent.dragOver(box, dragOf([file]))).toBe(true);
    fireEvent.drop(box, dragOf([file]));
    expect(onFiles).not.toHaveBeenCalled();
  });
});

describe('loading and empty states', () => {
  it('a skeleton is hidden from screen readers', () => {
    const { container } = render(<Skeleton width={120} height={16} />);
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    expect(container.firstElementChild).toHaveStyle({ width: '120px', height: '16px' });
  });

  it('QueryState shows the given skeleton and a busy status while loading', () => {
    render(
      <QueryState isLoading error={null} skeleton={<Skeleton height={200} />}>
        content
      </QueryState>,
    );
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(status).toHaveTextContent('Loading…');
    expect(status.querySelector('[data-skeleton]')).toHaveStyle({ height: '200px' });
    expect(screen.queryByText('content')).toBeNull();
  });

  it('an empty state says what is missing and what to do', () => {
    render(
      <EmptyState title="Your cart is empty." icon={<CartIcon />}>
        Find photos on the Events page.
      </EmptyState>,
    );
    expect(screen.getByText('Your cart is empty.')).toBeVisible();
    expect(screen.getByText('Find photos on the Events page.')).toBeVisible();
  });
});

describe('times', () => {
  const now = Date.parse('2026-11-23T15:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('recent times are relative, older ones absolute in the spec format', () => {
    expect(whenText(ago(20_000), now)).toBe('just now');
    expect(whenText(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(whenText(ago(3 * 3_600_000), now)).toBe('3 hours ago');
    expect(whenText(ago(2 * 86_400_000), now)).toBe('2 days ago');
    // Seven days and more: MM/DD/YYYY h:mm AM/PM.
    expect(whenText(ago(8 * 86_400_000), now)).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} (AM|PM)$/);
    // A time from the future (a clock ahead) is never "in 3 hours".
    expect(whenText(new Date(now + 3 * 3_600_000).toISOString(), now)).toMatch(/^\d{2}\/\d{2}\/2026 /);
    expect(whenText('not a time', now)).toBe('');
  });

  it('the absolute format is MM/DD/YYYY h:mm AM/PM in the local time zone', () => {
    const local = new Date(2026, 0, 5, 14, 7).toISOString();
    expect(absoluteTime(local)).toBe('01/05/2026 2:07 PM');
  });

  it('a time element carries the machine time and the absolute time as its title', async () => {
    const iso = new Date(Date.now() - 5 * 60_000).toISOString();
    render(<Time iso={iso} />);
    const time = await screen.findByText('5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', iso);
    expect(time).toHaveAttribute('title', absoluteTime(iso));
  });

  it("shows the absolute time even for a recent one when asked (a receipt's date)", async () => {
    const iso = new Date(2026, 0, 5, 14, 7).toISOString();
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date(2026, 0, 5, 14, 9) });
    try {
      render(<Time iso={iso} absolute />);
      const time = await screen.findByText('01/05/2026 2:07 PM');
      expect(time).toHaveAttribute('datetime', iso);
    } finally {
      vi.useRealTimers();
    }
  });

  it('moves on with the clock', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      render(<Time iso={new Date().toISOString()} />);
      await screen.findByText('just now');
      await vi.advanceTimersByTimeAsync(2 * 60_000);
      expect(await screen.findByText('2 minutes ago')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
