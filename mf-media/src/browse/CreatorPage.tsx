import {
  Avatar,
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
import { Packages } from './Packages.js';
import { useCreator } from './queries.js';
import { CardsSkeleton } from './ui.js';

// The file as it was uploaded, by the signed link the API gives its owner (and its buyers).
const download = (item: ContentItem) => item.originalUrl ?? '';

export function CreatorPage() {
  const { profileName = '' } = useParams();
  const { data, isLoading, error } = useCreator(profileName);
  // Creators download their own originals from their page; buyers get theirs on their Purchases page.
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
            <Packages profile={data.profile} packages={data.packages} />
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
