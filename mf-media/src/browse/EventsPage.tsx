import { Link } from 'react-router-dom';
import { safeHref } from '@marketplace/shared';
import { useEvents } from './queries.js';
import { Grid, PageBox, QueryState } from './ui.js';

export function EventsPage() {
  const { data, isLoading, error } = useEvents();
  const events = data?.events ?? [];
  return (
    <PageBox>
      <h1>Events</h1>
      <QueryState isLoading={isLoading} error={error} empty={events.length === 0} emptyText="No events yet.">
        <Grid>
          {events.map((e) => (
            <li key={e.eventIdentifier}>
              <Link to={`/event/${encodeURIComponent(e.eventIdentifier)}`}>
                {safeHref(e.coverUrl) && <img src={safeHref(e.coverUrl) ?? undefined} alt="" loading="lazy" />}
                <h3>{e.name}</h3>
              </Link>
              <p>
                {new Date(e.startsAt).toLocaleDateString()} · {e.location} · {e.itemCount} items
              </p>
            </li>
          ))}
        </Grid>
      </QueryState>
    </PageBox>
  );
}
