import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithSession, useMswServer, type TestSession } from '@marketplace/shared/test-utils';
import { MemoryRouter, type OwnEvent } from '@marketplace/shared';
import { MyEventsPage } from './MyEventsPage.js';

const API = 'http://api.test/v2/user/events';
const UPLOAD_URL = 'http://files.test/upload/cover/harbour-lights-festival-2027?token=t0ken';
const server = useMswServer();
const session: TestSession = {
  isLoggedIn: true,
  user: { roles: ['EVENT_ORGANIZER'], profileName: 'olga', profilePicture: null, username: 'Olga Events' },
};

const renderPage = () => renderWithSession(<MemoryRouter>{<MyEventsPage />}</MemoryRouter>, { session });
const form = async (request: Request) => Object.fromEntries(new URLSearchParams(await request.text()));

const ownEvent = (over: Partial<OwnEvent> = {}): OwnEvent => ({
  eventIdentifier: 'summer-jazz-night-2026',
  name: 'Summer Jazz Night',
  description: 'Open-air jazz.',
  location: 'Riverside Park',
  startsAt: '2026-07-01T18:00:00.000Z',
  coverUrl: null,
  cover: null,
  organizer: 'Olga Events',
  organizerProfileName: 'olga',
  itemCount: 0,
  published: true,
  coverProcessing: false,
  ...over,
});

/** The organizer's events as the API keeps them, and what each call sent. */
function eventsApi(start: OwnEvent[]) {
  const state = {
    events: [...start],
    sent: [] as [string, Record<string, string>][],
    uploadedType: null as string | null,
  };
  const answer = (identifier: string | undefined) =>
    HttpResponse.json({ event: state.events.find((e) => e.eventIdentifier === identifier) });
  server.use(
    http.get(API, () => HttpResponse.json({ events: state.events })),
    http.post(`${API}/create`, async ({ request }) => {
      const body = await form(request);
      state.sent.push(['create', body]);
      const created = ownEvent({
        eventIdentifier: 'harbour-lights-festival-2027',
        name: body.name,
        startsAt: new Date(body.startsAt ?? '').toISOString(),
        location: body.location,
        description: body.description,
        published: false,
      });
      state.events.unshift(created);
      return HttpResponse.json({ event: created });
    }),
    http.post(`${API}/publish`, async ({ request }) => {
      const body = await form(request);
      state.sent.push(['publish', body]);
      state.events = state.events.map((e) =>
        e.eventIdentifier === body.eventIdentifier ? { ...e, published: body.published === 'true' } : e,
      );
      return answer(body.eventIdentifier);
    }),
    http.post(`${API}/cover`, async ({ request }) => {
      const body = await form(request);
      state.sent.push(['cover', body]);
      return HttpResponse.json({ uploadUrl: UPLOAD_URL });
    }),
    http.put('http://files.test/upload/cover/:eventIdentifier', async ({ request, params }) => {
      state.uploadedType = request.headers.get('content-type');
      state.events = state.events.map((e) =>
        e.eventIdentifier === params.eventIdentifier ? { ...e, coverProcessing: true } : e,
      );
      return HttpResponse.json({ sizeBytes: 4 });
    }),
  );
  return state;
}

describe('MyEventsPage', () => {
  it('lists each event with its state, date, time and place', async () => {
    eventsApi([ownEvent(), ownEvent({ eventIdentifier: 'winter-gala-2026', name: 'Winter Gala', published: false })]);
    renderPage();
    const list = await screen.findByRole('list', { name: 'Your events' });
    const [jazz, gala] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(jazz).toHaveTextContent('Summer Jazz Night · Published');
    expect(jazz).toHaveTextContent('Wed, 1 Jul 2026, 18:00 · Riverside Park');
    expect(within(jazz).getByRole('link', { name: 'Summer Jazz Night' })).toHaveAttribute(
      'href',
      '/event/summer-jazz-night-2026',
    );
    expect(within(jazz).getByRole('button', { name: 'Withdraw Summer Jazz Night' })).toBeInTheDocument();
    expect(gala).toHaveTextContent('Winter Gala · Draft');
    expect(within(gala).getByRole('button', { name: 'Publish Winter Gala' })).toBeInTheDocument();
  });

  it('creates a draft from the form and uploads its cover, processing until the pipeline made it', async () => {
    const api = eventsApi([ownEvent()]);
    renderPage();
    await screen.findByText('Summer Jazz Night');
    await userEvent.click(screen.getByRole('button', { name: 'New event' }));
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Harbour Lights Festival');
    fireEvent.change(within(dialog).getByLabelText('Date and time'), { target: { value: '2027-05-01T18:30' } });
    await userEvent.type(within(dialog).getByLabelText('Location'), 'Pier 3');
    const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'lanterns.png', { type: 'image/png' });
    await userEvent.upload(within(dialog).getByLabelText('Choose a cover picture'), picture);
    expect(within(dialog).getByText('Cover: lanterns.png')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Harbour Lights Festival saved');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent).toEqual([
      [
        'create',
        { name: 'Harbour Lights Festival', startsAt: '2027-05-01T18:30Z', location: 'Pier 3', description: '' },
      ],
      ['cover', { eventIdentifier: 'harbour-lights-festival-2027', contentType: 'image/png' }],
    ]);
    // Sent where the API said (a PUT of the bytes here; a presigned POST with an object store).
    expect(api.uploadedType).toBe('image/png');
    const created = (await screen.findByRole('link', { name: 'Harbour Lights Festival' })).closest('li') as HTMLElement;
    await waitFor(() => expect(created).toHaveTextContent('Draft · Cover: Processing…'));
    expect(created).toHaveTextContent('Sat, 1 May 2027, 18:30 · Pier 3');

    // The media job made it: the list, asking again while a cover is processing, shows it ready.
    api.events = api.events.map((e) => ({ ...e, coverProcessing: false }));
    await waitFor(() => expect(created).not.toHaveTextContent('Processing…'), { timeout: 4000 });
  });

  it('shows every missing answer at once, each beside its box, focuses the first, and sends nothing', async () => {
    const api = eventsApi([ownEvent()]);
    renderPage();
    await screen.findByText('Summer Jazz Night');
    await userEvent.click(screen.getByRole('button', { name: 'New event' }));
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    await userEvent.type(within(dialog).getByLabelText('Location'), 'Pier 3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Fill this in');
    expect(within(dialog).getByLabelText('Date and time')).toHaveAccessibleDescription(
      "At the venue's local time. Fill this in",
    );
    expect(within(dialog).getByLabelText('Location')).not.toHaveAttribute('aria-invalid');
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    expect(api.sent).toEqual([]);
  });

  it("shows the server's reason beside the field it is about", async () => {
    eventsApi([ownEvent()]);
    server.use(
      http.post(`${API}/create`, () =>
        HttpResponse.json(
          { error: "Invalid field 'location': must be at most 200 characters", field: 'location' },
          { status: 400 },
        ),
      ),
    );
    renderPage();
    await screen.findByText('Summer Jazz Night');
    await userEvent.click(screen.getByRole('button', { name: 'New event' }));
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Harbour Lights Festival');
    fireEvent.change(within(dialog).getByLabelText('Date and time'), { target: { value: '2027-05-01T18:30' } });
    await userEvent.type(within(dialog).getByLabelText('Location'), 'Pier 3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const location = within(dialog).getByLabelText('Location');
    await waitFor(() => expect(location).toHaveAttribute('aria-invalid', 'true'));
    expect(location).toHaveAccessibleDescription("Invalid field 'location': must be at most 200 characters");
    await waitFor(() => expect(location).toHaveFocus());
    expect(within(dialog).getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('edits an event, and shows a refused cover beside the cover field', async () => {
    const api = eventsApi([ownEvent()]);
    server.use(
      http.post(`${API}/update`, async ({ request }) => {
        const body = await form(request);
        api.sent.push(['update', body]);
        return HttpResponse.json({ event: ownEvent({ name: body.name }) });
      }),
      http.post(`${API}/cover`, () =>
        HttpResponse.json(
          { error: 'A cover is a PNG, JPEG, WebP or GIF picture', field: 'contentType' },
          { status: 400 },
        ),
      ),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Summer Jazz Night' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Summer Jazz Night' });
    expect(within(dialog).getByLabelText('Date and time')).toHaveValue('2026-07-01T18:00');
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Summer Jazz Nights');
    await userEvent.upload(
      within(dialog).getByLabelText('Choose a cover picture'),
      new File(['x'], 'cover.png', { type: 'image/png' }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A cover is a PNG, JPEG, WebP or GIF picture');
    expect(api.sent[0]).toEqual([
      'update',
      {
        eventIdentifier: 'summer-jazz-night-2026',
        name: 'Summer Jazz Nights',
        startsAt: '2026-07-01T18:00Z',
        location: 'Riverside Park',
        description: 'Open-air jazz.',
      },
    ]);
  });

  it('publishes a draft, and withdraws a published event once confirmed', async () => {
    const api = eventsApi([
      ownEvent(),
      ownEvent({ eventIdentifier: 'winter-gala-2026', name: 'Winter Gala', published: false }),
    ]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Publish Winter Gala' }));
    expect(await screen.findByRole('button', { name: 'Withdraw Winter Gala' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Winter Gala published');

    await userEvent.click(screen.getByRole('button', { name: 'Withdraw Summer Jazz Night' }));
    const confirm = screen.getByRole('dialog', { name: 'Withdraw Summer Jazz Night?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByRole('button', { name: 'Publish Summer Jazz Night' })).toBeInTheDocument();
    expect(api.sent).toEqual([
      ['publish', { eventIdentifier: 'winter-gala-2026', published: 'true' }],
      ['publish', { eventIdentifier: 'summer-jazz-night-2026', published: 'false' }],
    ]);
  });
});
