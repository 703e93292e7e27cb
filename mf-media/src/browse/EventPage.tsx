import {
  EmptyState,
  formatEventTime,
  PageLayout,
  PageSkeleton,
  PhotoIcon,
  QueryState,
  summary,
  useParams,
  usePageHead,
} from '@marketplace/shared';
import { ContentGrid } from './ContentGrid.js';
import { useEvent } from './queries.js';
import { CardsSkeleton } from './ui.js';

export function EventPage() {
  const { eventIdentifier = '' } = useParams();
  const { data, isLoading, error } = useEvent(eventIdentifier);
  usePageHead(
    data
      ? {
          title: data.event.name,
          description: summary(data.event.description),
          image: data.event.coverUrl ?? undefined,
        }
      : null,
  );
  return (
    <PageLayout>
      <QueryState
        isLoading={isLoading}
        error={error}
        notFoundText="There is no event at this address."
        skeleton={
          <>
            <PageSkeleton />
            <CardsSkeleton lines={3} />
          </>
        }
      >
        <h1>{data?.event.name}</h1>
        {data && (
          <p>
            <time dateTime={data.event.startsAt}>{formatEventTime(data.event.startsAt)}</time> · {data.event.location}
          </p>
        )}
        <p>{data?.event.description}</p>
        {data &&
          (data.contentItems.length === 0 ? (
            <EmptyState title="No photos or videos yet." icon={<PhotoIcon />} />
          ) : (
            <ContentGrid items={data.contentItems} />
          ))}
      </QueryState>
    </PageLayout>
  );
}
