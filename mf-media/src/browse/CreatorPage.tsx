import { Avatar, downloadUrl, PageLayout, QueryState, useParams, useSession, type ContentItem } from '@marketplace/shared';
import { ContentGrid } from './ContentGrid.js';
import { useCreator } from './queries.js';

const download = (item: ContentItem) => downloadUrl({ filePath: item.filePath, fileName: item.filename });

export function CreatorPage() {
  const { profileName = '' } = useParams();
  const { data, isLoading, error } = useCreator(profileName);
  // Creators download their own originals from their page; buyers get content through the cart.
  const isOwnPage = useSession((s) => s.user?.profileName === profileName);
  return (
    <PageLayout>
      <QueryState isLoading={isLoading} error={error}>
        {data && (
          <>
            <header style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
              <Avatar src={data.profile.profilePicture} name={data.profile.username} size={64} />
              <div>
                <h1>{data.profile.username}</h1>
                <p>{data.profile.bio}</p>
              </div>
            </header>
            {data.contentItems.length === 0 ? <p>No content yet.</p> : <ContentGrid items={data.contentItems} downloadUrl={isOwnPage ? download : undefined} />}
          </>
        )}
      </QueryState>
    </PageLayout>
  );
}
