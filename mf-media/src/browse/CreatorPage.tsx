import {
  Avatar,
  downloadUrl,
  EmptyState,
  PageLayout,
  PhotoIcon,
  QueryState,
  Skeleton,
  summary,
  useParams,
  usePageHead,
  useSession,
  type ContentItem,
} from '@marketplace/shared';
import { ContentGrid } from './ContentGrid.js';
import { useCreator } from './queries.js';
import { CardsSkeleton } from './ui.js';

// Nothing to download while an item is processing, nor of a video (its ladder is no file to keep).
const download = (item: ContentItem) =>
  item.filePath ? downloadUrl({ filePath: item.filePath, fileName: item.filename }) : '';

export function CreatorPage() {
  const { profileName = '' } = useParams();
  const { data, isLoading, error } = useCreator(profileName);
  // Creators download their own photos (the largest picture made) from their page; buyers get content through the cart.
  const isOwnPage = useSession((s) => s.user?.profileName === profileName);
  usePageHead(
    data
      ? {
          title: data.profile.username,
          description: summary(data.profile.bio || `Photos, videos and posts by ${data.profile.username}.`),
        }
      : null,
  );
  return (
    <PageLayout>
      <QueryState
        isLoading={isLoading}
        error={error}
        notFoundText="There is no one with this profile name."
        skeleton={
          <>
            <div style={{ display: 'flex', gap: 16, alignItems: 'center', margin: '16px 0' }}>
              <Skeleton shape="circle" width={64} height={64} />
              <Skeleton width={220} height={32} />
            </div>
            <CardsSkeleton lines={3} />
          </>
        }
      >
        {data && (
          <>
            <header style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
              <Avatar src={data.profile.profilePicture} name={data.profile.username} size={64} />
              <div>
                <h1>{data.profile.username}</h1>
                <p>{data.profile.bio}</p>
              </div>
            </header>
            {data.contentItems.length === 0 ? (
              <EmptyState title="No content yet." icon={<PhotoIcon />} />
            ) : (
              <ContentGrid items={data.contentItems} downloadUrl={isOwnPage ? download : undefined} />
            )}
          </>
        )}
      </QueryState>
    </PageLayout>
  );
}
