import { PageLayout, QueryState, useParams } from '@marketplace/shared';
import { ContentGrid } from './ContentGrid.js';
import { useEvent } from './queries.js';

export function EventPage() {
  const { eventIdentifier = '' } = useParams();
  const { data, isLoading, error } = useEvent(eventIdentifier);
  return (
    <PageLayout>
      <QueryState isLoading={isLoading} error={error}>
        <h1>{data?.event.name}</h1>
        <p>{data?.event.description}</p>
        {data && (data.contentItems.length === 0 ? <p>No photos or videos yet.</p> : <ContentGrid items={data.contentItems} />)}
      </QueryState>
    </PageLayout>
  );
}
