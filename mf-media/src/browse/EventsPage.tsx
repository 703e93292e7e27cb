import { useQueryClient } from '@tanstack/react-query';
import { Card, Link, PageLayout, PAGES, Picture, QueryState, safeHref, type EventSummary } from '@marketplace/shared';
import { usePrefetchWhenNear } from './prefetch.js';
import { prefetchEvent, useEvents } from './queries.js';
import { CARD_SIZES, CardsSkeleton, Grid, pictureLoading, picturePriority } from './ui.js';

export function EventsPage() {
  const { data, isLoading, error } = useEvents();
  const events = data?.events ?? [];
  return (
    <PageLayout>
      <h1>Events</h1>
      <QueryState
        isLoading={isLoading}
        error={error}
        empty={events.length === 0}
        emptyText="No events yet."
        emptyHint="New events appear here as organizers publish them."
        skeleton={<CardsSkeleton />}
      >
        <Grid>
          {events.map((e, i) => (
            <EventCard key={e.eventIdentifier} event={e} index={i} />
          ))}
        </Grid>
      </QueryState>
    </PageLayout>
  );
}

function EventCard({ event: e, index }: { event: EventSummary; index: number }) {
  const client = useQueryClient();
  const link = usePrefetchWhenNear<HTMLAnchorElement>(() => void prefetchEvent(client, e.eventIdentifier));
  const cover = safeHref(e.coverUrl);
  return (
    <Card as="li">
      <Link ref={link} to={PAGES.event.href({ eventIdentifier: e.eventIdentifier })}>
        {e.cover ? (
          <Picture image={e.cover} alt="" sizes={CARD_SIZES} priority={picturePriority(index)} />
        ) : (
          cover && <img src={cover} alt="" {...pictureLoading(index)} />
        )}
        <h2>{e.name}</h2>
      </Link>
      <p>
        {new Date(e.startsAt).toLocaleDateString()} · {e.location} · {e.itemCount} items
      </p>
    </Card>
  );
}
