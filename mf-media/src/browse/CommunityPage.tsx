import { Link } from 'react-router-dom';
import { Avatar } from '@marketplace/shared';
import { usePosts } from './queries.js';
import { PageBox, QueryState } from './ui.js';

export function CommunityPage() {
  const { data, isLoading, error } = usePosts();
  const posts = data?.posts ?? [];
  return (
    <PageBox>
      <h1>Posts</h1>
      <QueryState isLoading={isLoading} error={error} empty={posts.length === 0} emptyText="No posts yet.">
        <ul style={{ listStyle: 'none', padding: 0 }}>
          {posts.map((p) => (
            <li key={p.id} style={{ display: 'flex', gap: 12, marginBottom: 16 }}>
              <Avatar src={p.author.profilePicture} name={p.author.username} size={40} />
              <div>
                <Link to={`/user/${encodeURIComponent(p.author.profileName)}`}>{p.author.username}</Link>
                <p>{p.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </QueryState>
    </PageBox>
  );
}
