import styled from 'styled-components';
import { Avatar, Link, PageLayout, PAGES, QueryState, Skeleton, theme } from '@marketplace/shared';
import { ContentGrid } from './ContentGrid.js';
import { usePosts } from './queries.js';

const Posts = styled.ul`
  list-style: none;
  padding: 0;
  > li {
    display: flex;
    gap: 12px;
    padding: 16px 0;
    border-bottom: 1px solid ${theme.colors.border};
  }
  .body {
    flex: 1;
    min-width: 0;
  }
  .body > p {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .body ul {
    max-width: 360px;
  }
`;

/** Three posts' places: a picture, a name and two lines of text each. */
const POSTS_SKELETON = (
  <Posts aria-hidden="true">
    {[0, 1, 2].map((i) => (
      <li key={i}>
        <Skeleton shape="circle" width={40} height={40} />
        <div className="body">
          <Skeleton width={140} height={16} style={{ marginBottom: 16 }} />
          <Skeleton height={14} style={{ marginBottom: 8 }} />
          <Skeleton width="60%" height={14} />
        </div>
      </li>
    ))}
  </Posts>
);

export function CommunityPage() {
  const { data, isLoading, error } = usePosts();
  const posts = data?.posts ?? [];
  return (
    <PageLayout>
      <h1>Posts</h1>
      <QueryState
        isLoading={isLoading}
        error={error}
        empty={posts.length === 0}
        emptyText="No posts yet."
        emptyHint="Posts from photographers and organizers appear here."
        skeleton={POSTS_SKELETON}
      >
        <Posts aria-label="Posts">
          {posts.map((p) => (
            <li key={p.id}>
              <Avatar src={p.author.profilePicture} name={p.author.username} size={40} />
              <div className="body">
                <Link to={PAGES.creator.href({ profileName: p.author.profileName })}>{p.author.username}</Link>
                <p>{p.text}</p>
                {/* A post's photo or video opens in the viewer like any gallery item. */}
                {p.contentItem && <ContentGrid items={[p.contentItem]} />}
              </div>
            </li>
          ))}
        </Posts>
      </QueryState>
    </PageLayout>
  );
}
