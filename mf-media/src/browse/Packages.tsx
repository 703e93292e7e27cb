import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  ApiError,
  apiCall,
  Button,
  formatMoney,
  Modal,
  PAGES,
  requestChat,
  setLoginRedirect,
  TextField,
  theme,
  useLocation,
  useNavigate,
  useSession,
  type MediaPackage,
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

const FIELDS = ['eventName', 'eventDate', 'location', 'guests', 'requirements', 'discountCode'] as const;
type Field = (typeof FIELDS)[number];

/** The booking form of one package: the event, what the client needs, a code of the photographer's. */
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
  const [values, setValues] = useState<Record<Field, string>>({
    eventName: '',
    eventDate: '',
    location: '',
    guests: '',
    requirements: '',
    discountCode: '',
  });
  const [failure, setFailure] = useState<{ field: string | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues({ ...values, [field]: event.target.value });
  const errorOf = (field: Field) => (failure?.field === field ? failure.message : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = (['eventName', 'eventDate', 'location', 'guests'] as const).find((f) => !values[f].trim());
    if (missing) return setFailure({ field: missing, message: 'Fill this in' });
    // datetime-local is the client's wall clock: sent with its offset, as an instant.
    const starts = new Date(values.eventDate);
    if (Number.isNaN(starts.getTime())) return setFailure({ field: 'eventDate', message: 'Pick a date and time' });
    setBusy(true);
    setFailure(null);
    try {
      const { orderId } = await apiCall('bookPhotographer', {
        photographer: profile.profileName,
        packageId: offer.id,
        eventName: values.eventName,
        eventDate: starts.toISOString(),
        location: values.location,
        guests: Number(values.guests),
        requirements: values.requirements,
        ...(values.discountCode.trim() ? { discountCode: values.discountCode.trim() } : {}),
      });
      navigate(PAGES.eventOrder.href({ orderId }));
    } catch (error) {
      setFailure(
        error instanceof ApiError
          ? { field: error.field ?? null, message: error.message }
          : { field: null, message: 'The booking could not be sent: try again' },
      );
      setBusy(false);
    }
  };

  return (
    <Modal title={`Book ${profile.username}: ${offer.name}`} onClose={busy ? undefined : onClose} width={520}>
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <p>
          {offer.description} {formatMoney(offer.priceCents)}, before any code.
        </p>
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
        {failure && !FIELDS.includes(failure.field as Field) && <p role="alert">{failure.message}</p>}
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
