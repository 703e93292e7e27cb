import { render, screen } from '@testing-library/react';
import { MemoryRouter, PAGES } from '@marketplace/shared';
import { describe, expect, it } from 'vitest';
import { DownPage, SITE_IS_DOWN } from './DownPage.js';
import { Footer } from './Footer.js';

const footerAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Footer onContact={() => {}} />
    </MemoryRouter>,
  );

describe('Footer', () => {
  it('has Contact Us and Question? (to /faq)', () => {
    footerAt('/events');
    expect(screen.getByRole('button', { name: 'Contact Us' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Question?' })).toHaveAttribute('href', '/faq');
    expect(screen.getByRole('contentinfo')).toHaveAttribute('data-variant', 'default');
  });

  it('takes its other style on /user/signup', () => {
    footerAt('/user/signup');
    expect(screen.getByRole('contentinfo')).toHaveAttribute('data-variant', 'signup');
  });

  it('is absent on any path containing /receipt', () => {
    footerAt('/orders/1/receipt');
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it("is absent on the receipt page, whose footer is 'none' in the platform table", () => {
    expect(PAGES.receipt.footer).toBe('none');
    footerAt(PAGES.receipt.href({ purchaseNumber: 'P-7K2M9Q4X' }));
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});

describe('DownPage', () => {
  it("reads the spec's message, and its flag is not set", () => {
    render(<DownPage />);
    expect(
      screen.getByText(
        "Website is currently down, we're working on getting it back up and running as quickly as possible.",
      ),
    ).toBeInTheDocument();
    expect(SITE_IS_DOWN).toBe(false);
  });
});
