import { EmptyState, PageLayout, PhotoIcon, QueryState, useParams } from '@marketplace/shared';
import { ContentGrid } from './ContentGrid.js';
import { useEvent } from './queries.js';
import { CardsSkeleton, HeadingSkeleton } from './ui.js';

export function EventPage() {
  const { eventIdentifier = '' } = useParams();
  const { data, isLoading, error } = useEvent(eventIdentifier);
  return (
    <PageLayout>
      <QueryState
        isLoading={isLoading}
        error={error}
        skeleton={
          <>
            <HeadingSkeleton />
            <CardsSkeleton lines={3} />
          </>
        }
      >
        <h1>{data?.event.name}</h1>
        <p>{data?.event.description}</p>
        {data && (data.contentItems.length === 0 ? <EmptyState title="No photos or videos yet." icon={<PhotoIcon />} /> : <ContentGrid items={data.contentItems} />)}
      </QueryState>
    </PageLayout>
  );
}
