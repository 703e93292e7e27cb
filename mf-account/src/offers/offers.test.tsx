import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithSession, useMswServer, type TestSession } from '@marketplace/shared/test-utils';
import { MemoryRouter, type DiscountCode, type MediaPackage } from '@marketplace/shared';
import { DiscountCodesPage } from './DiscountCodesPage.js';
import { MediaPackagesPage } from './MediaPackagesPage.js';

const API = 'http://api.test/v2/user';
const server = useMswServer();
const session: TestSession = {
  isLoggedIn: true,
  user: { roles: ['MEDIA'], profileName: 'mia', profilePicture: null, username: 'Mia Lens' },
};

const renderPage = (page: React.ReactNode) => renderWithSession(<MemoryRouter>{page}</MemoryRouter>, { session });
const form = async (request: Request) => Object.fromEntries(new URLSearchParams(await request.text()));

const essentials: MediaPackage = {
  id: 1,
  name: 'Essentials',
  description: 'Two hours of coverage.',
  priceCents: 25000,
  photoCount: 50,
  videoMinutes: 0,
  hours: 2,
  active: true,
};

/** The packages list as the API keeps it, and what each change sent. */
function packagesApi(start: MediaPackage[]) {
  const state = { packages: [...start], sent: [] as Record<string, string>[] };
  server.use(
    http.get(`${API}/mediaPackages`, () => HttpResponse.json({ mediaPackages: state.packages })),
    http.post(`${API}/mediaPackages/create`, async ({ request }) => {
      const body = await form(request);
      state.sent.push(body);
      const created: MediaPackage = {
        id: 2,
        name: body.name ?? '',
        description: body.description ?? '',
        priceCents: Number(body.priceCents),
        photoCount: Number(body.photoCount),
        videoMinutes: Number(body.videoMinutes ?? 0),
        hours: Number(body.hours),
        active: true,
      };
      state.packages.push(created);
      return HttpResponse.json({ mediaPackage: created });
    }),
    http.post(`${API}/mediaPackages/withdraw`, async ({ request }) => {
      const body = await form(request);
      state.sent.push(body);
      state.packages = state.packages.map((p) => (p.id === Number(body.id) ? { ...p, active: false } : p));
      return HttpResponse.json({ mediaPackage: state.packages.find((p) => p.id === Number(body.id)) });
    }),
  );
  return state;
}

describe('MediaPackagesPage', () => {
  it('creates a package from its form, priced in dollars, and lists it', async () => {
    const api = packagesApi([essentials]);
    renderPage(<MediaPackagesPage />);
    expect(await screen.findByText('Essentials')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New package' }));
    const dialog = screen.getByRole('dialog', { name: 'New package' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Portrait corner');
    await userEvent.type(within(dialog).getByLabelText('What is included'), 'Lit corner, 80 portraits.');
    await userEvent.type(within(dialog).getByLabelText('Hours of coverage'), '3');
    await userEvent.type(within(dialog).getByLabelText('Edited photos'), '80');
    await userEvent.type(within(dialog).getByLabelText('Price (USD)'), '$1,250.50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create package' }));

    expect(await screen.findByText('Portrait corner')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.sent[0]).toMatchObject({ name: 'Portrait corner', hours: '3', photoCount: '80', priceCents: '125050' });
    expect(screen.getByText(/\$1,250\.50/)).toBeInTheDocument();
  });

  it('shows every missing answer at once, each beside its box, and sends nothing', async () => {
    const api = packagesApi([]);
    renderPage(<MediaPackagesPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'New package' }));
    const dialog = screen.getByRole('dialog', { name: 'New package' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create package' }));
    for (const label of ['Name', 'Hours of coverage', 'Edited photos', 'Price (USD)'])
      expect(within(dialog).getByLabelText(label)).toHaveAccessibleDescription('Fill this in');
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    // Answered: no longer marked.
    await userEvent.type(within(dialog).getByLabelText('Hours of coverage'), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create package' }));
    expect(within(dialog).getByLabelText('Hours of coverage')).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Fill this in');
    expect(api.sent).toEqual([]);
  });

  it("shows the server's reason beside the field it is about", async () => {
    packagesApi([]);
    server.use(
      http.post(`${API}/mediaPackages/create`, () =>
        HttpResponse.json(
          { error: "Invalid field 'priceCents': must be more than $0.00", field: 'priceCents' },
          { status: 400 },
        ),
      ),
    );
    renderPage(<MediaPackagesPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'New package' }));
    const dialog = screen.getByRole('dialog', { name: 'New package' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Free');
    await userEvent.type(within(dialog).getByLabelText('Hours of coverage'), '1');
    await userEvent.type(within(dialog).getByLabelText('Edited photos'), '5');
    await userEvent.type(within(dialog).getByLabelText('Price (USD)'), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create package' }));

    const price = within(dialog).getByLabelText('Price (USD)');
    await waitFor(() =>
      expect(price).toHaveAccessibleDescription("Invalid field 'priceCents': must be more than $0.00"),
    );
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('withdraws a package only once asked, and marks it withdrawn', async () => {
    const api = packagesApi([essentials]);
    renderPage(<MediaPackagesPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Withdraw Essentials' }));
    const dialog = screen.getByRole('dialog', { name: 'Withdraw Essentials?' });
    expect(api.sent).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.sent).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Withdraw Essentials' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Withdraw Essentials?' })).getByRole('button', { name: 'Withdraw' }),
    );
    expect(await screen.findByText(/Withdrawn/)).toBeInTheDocument();
    expect(api.sent).toEqual([{ id: '1' }]);
    expect(screen.queryByRole('button', { name: 'Withdraw Essentials' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Essentials' })).toBeInTheDocument();
  });
});

describe('DiscountCodesPage', () => {
  const spring: DiscountCode = {
    id: 7,
    code: 'MIA10',
    percentOff: 10,
    amountOffCents: null,
    expiresAt: null,
    maxUses: null,
    timesUsed: 3,
    active: true,
  };

  it('creates an amount code and shows a taken code beside the code field', async () => {
    const codes = [spring];
    const sent: Record<string, string>[] = [];
    server.use(
      http.get(`${API}/discountCodes`, () => HttpResponse.json({ discountCodes: codes })),
      http.post(`${API}/discountCodes/create`, async ({ request }) => {
        const body = await form(request);
        sent.push(body);
        if (body.code === 'MIA10')
          return HttpResponse.json(
            { error: 'The code MIA10 is taken: choose another', field: 'code' },
            { status: 409 },
          );
        const created = { ...spring, id: 8, code: body.code ?? '', percentOff: 0, amountOffCents: 1500, timesUsed: 0 };
        codes.push(created);
        return HttpResponse.json({ discountCode: created });
      }),
    );
    renderPage(<DiscountCodesPage />);
    expect(await screen.findByText('MIA10')).toBeInTheDocument();
    expect(screen.getByText(/10% off/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New code' }));
    const dialog = screen.getByRole('dialog', { name: 'New code' });
    await userEvent.type(within(dialog).getByLabelText('Code'), 'mia10');
    await userEvent.type(within(dialog).getByLabelText('Percent off'), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create code' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Code')).toHaveAccessibleDescription(
        expect.stringContaining('The code MIA10 is taken: choose another'),
      ),
    );

    await userEvent.clear(within(dialog).getByLabelText('Code'));
    await userEvent.type(within(dialog).getByLabelText('Code'), 'miaflat');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Amount off the total' }));
    await userEvent.type(within(dialog).getByLabelText('Amount off (USD)'), '15');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create code' }));
    expect(await screen.findByText('MIAFLAT')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ code: 'MIAFLAT', amountOffCents: '1500' });
    expect(screen.getByText(/\$15\.00 off/)).toBeInTheDocument();
  });
});
