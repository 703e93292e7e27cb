import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  apiCall,
  Button,
  callQuery,
  eventTimeFromInput,
  formatEventTime,
  formatMoney,
  Modal,
  PAGES,
  requestChat,
  SelectField,
  setLoginRedirect,
  TextField,
  theme,
  useFormErrors,
  useLocation,
  useNavigate,
  useSession,
  type FieldErrors,
  type MediaPackage,
  type OwnEvent,
  type PublicProfile,
} from '@marketplace/shared';

const Cards = styled.ul`
  list-style: none;
  margin: 0 0 ${theme.space.lg};
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: ${theme.space.md};
  li {
    display: grid;
    gap: ${theme.space.xs};
    align-content: start;
    padding: ${theme.space.md};
    border: 1px solid ${theme.colors.control};
    border-radius: 8px;
  }
  h3 {
    margin: 0;
  }
  p {
    margin: 0;
  }
  .price {
    font-weight: 700;
    font-size: 1.2em;
  }
`;

const Form = styled.form`
  display: grid;
  gap: ${theme.space.md};
`;

const FIELDS = [
  'eventIdentifier',
  'eventName',
  'eventDate',
  'location',
  'guests',
  'requirements',
  'discountCode',
] as const;
type Field = (typeof FIELDS)[number];

/** The event choice that describes a new event in the form. */
const NEW_EVENT = '';

/** The upcoming events the user organizes, which a booking may be for; none for anyone else. */
function useOwnUpcomingEvents(): OwnEvent[] {
  const organizes = useSession((s) => s.user?.roles.includes('EVENT_ORGANIZER') ?? false);
  const { data } = useQuery({ ...callQuery('getMyEvents'), enabled: organizes });
  const now = Date.now();
  return (data?.events ?? []).filter((event) => Date.parse(event.startsAt) > now);
}

/** The booking form of one package: the event (one of the client's or a new one), what the client needs, a code of the photographer's. */
function BookingForm({
  profile,
  offer,
  onClose,
}: {
  profile: PublicProfile;
  offer: MediaPackage;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const ownEvents = useOwnUpcomingEvents();
  // A new event until the user chooses one of theirs (they load after the form opens).
  const [eventIdentifier, setEventIdentifier] = useState(NEW_EVENT);
  const [values, setValues] = useState<Record<Exclude<Field, 'eventIdentifier'>, string>>({
    eventName: '',
    eventDate: '',
    location: '',
    guests: '',
    requirements: '',
    discountCode: '',
  });
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues({ ...values, [field]: event.target.value });
  const isNew = eventIdentifier === NEW_EVENT;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Every missing answer at once, each beside its box.
    const required: readonly (keyof typeof values)[] = isNew
      ? ['eventName', 'eventDate', 'location', 'guests']
      : ['guests'];
    const found: FieldErrors<Field> = Object.fromEntries(
      required.filter((field) => !values[field].trim()).map((field) => [field, 'Fill this in']),
    );
    if (values.guests.trim() && !/^\d+$/.test(values.guests.trim())) found.guests = 'A whole number of guests';
    if (!show(found)) return;
    setBusy(true);
    try {
      const { orderId } = await apiCall('bookPhotographer', {
        photographer: profile.profileName,
        packageId: offer.id,
        ...(isNew
          ? {
              eventName: values.eventName,
              // The venue's clock, as every event's time is (formatEventTime).
              eventDate: eventTimeFromInput(values.eventDate),
              location: values.location,
            }
          : { eventIdentifier }),
        guests: Number(values.guests),
        requirements: values.requirements,
        ...(values.discountCode.trim() ? { discountCode: values.discountCode.trim() } : {}),
      });
      navigate(PAGES.eventOrder.href({ orderId }));
    } catch (error) {
      fail(error, 'The booking could not be sent: try again');
      setBusy(false);
    }
  };

  return (
    <Modal title={`Book ${profile.username}: ${offer.name}`} onClose={busy ? undefined : onClose} width={520}>
      <Form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <p>
          {offer.description} {formatMoney(offer.priceCents)}, before any code.
        </p>
        {ownEvents.length > 0 && (
          <SelectField
            label="Which event?"
            value={eventIdentifier}
            onChange={(event) => setEventIdentifier(event.target.value)}
            error={errorOf('eventIdentifier')}
            options={[
              { value: NEW_EVENT, label: 'A new event' },
              ...ownEvents.map((own) => ({
                value: own.eventIdentifier,
                label: `${own.name}, ${formatEventTime(own.startsAt)}`,
              })),
            ]}
          />
        )}
        {isNew && (
          <>
            <TextField
              label="Event"
              value={values.eventName}
              maxLength={120}
              onChange={set('eventName')}
              error={errorOf('eventName')}
            />
            <TextField
              label="Date and time"
              type="datetime-local"
              value={values.eventDate}
              onChange={set('eventDate')}
              error={errorOf('eventDate')}
            />
            <TextField
              label="Place"
              value={values.location}
              maxLength={200}
              onChange={set('location')}
              error={errorOf('location')}
            />
          </>
        )}
        <TextField
          label="Guests"
          inputMode="numeric"
          value={values.guests}
          onChange={set('guests')}
          error={errorOf('guests')}
        />
        <TextField
          multiline
          rows={3}
          label="What do you need? (optional)"
          value={values.requirements}
          maxLength={2000}
          onChange={set('requirements')}
          error={errorOf('requirements')}
        />
        <TextField
          label="Discount code (optional)"
          value={values.discountCode}
          maxLength={40}
          onChange={set('discountCode')}
          error={errorOf('discountCode')}
        />
        {formError && <p role="alert">{formError}</p>}
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <Button type="submit" variant="primary" disabled={busy}>
            Send request
          </Button>
          <Button disabled={busy} onClick={onClose}>
            Back
          </Button>
        </div>
      </Form>
    </Modal>
  );
}

/**
 * A photographer's packages on their page, each with "Book", and "Message" to open a chat with
 * them. A visitor is asked to log in first and comes back here.
 */
export function Packages({ profile, packages }: { profile: PublicProfile; packages: MediaPackage[] }) {
  const user = useSession((s) => s.user);
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [booking, setBooking] = useState<MediaPackage | null>(null);
  if (packages.length === 0 || user?.profileName === profile.profileName) return null;
  const logInFirst = () => {
    setLoginRedirect(pathname);
    navigate(PAGES.login.href());
  };
  return (
    <section aria-labelledby="packages">
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <h2 id="packages" style={{ marginRight: 'auto' }}>
          Book {profile.username}
        </h2>
        <Button
          onClick={() =>
            isLoggedIn
              ? requestChat({
                  profileName: profile.profileName,
                  username: profile.username,
                  profilePicture: profile.profilePicture,
                })
              : logInFirst()
          }
        >
          Message
        </Button>
      </div>
      <Cards aria-label="Packages">
        {packages.map((offer) => (
          <li key={offer.id}>
            <h3>{offer.name}</h3>
            <p>{offer.description}</p>
            <p>
              {offer.photoCount} edited photos
              {offer.videoMinutes > 0 ? `, ${offer.videoMinutes} min of video` : ''}
            </p>
            <p className="price">{formatMoney(offer.priceCents)}</p>
            <Button
              variant="primary"
              aria-label={`Book ${offer.name}`}
              onClick={() => (isLoggedIn ? setBooking(offer) : logInFirst())}
            >
              Book
            </Button>
          </li>
        ))}
      </Cards>
      {booking && <BookingForm profile={profile} offer={booking} onClose={() => setBooking(null)} />}
    </section>
  );
}
