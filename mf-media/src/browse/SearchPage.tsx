import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import {
  Card,
  DEFAULT_AVATAR,
  Link,
  PAGE_DATA,
  PageLayout,
  pageQuery,
  QueryState,
  safeHref,
  searchQueryOf,
  type SearchResult,
  usePageHead,
  useSearchParams,
} from '@marketplace/shared';
import { CardsSkeleton, Grid, pictureLoading } from './ui.js';

/** The cards' grid, under a section's heading: a card's name is a level lower. */
const Results = styled(Grid)`
  h3 {
    font-size: 1.17em;
    margin: 8px 12px 0;
  }
`;

export type ResultKind = 'event' | 'photo' | 'person';

/** What a result is, from where it leads: a photo opens in a gallery's viewer (`?photo=`), an event or a person has a page. */
export function kindOf(result: SearchResult): ResultKind | null {
  const link = result.urlLink;
  if (/[?&]photo=/.test(link)) return 'photo';
  if (link.startsWith('/event/')) return 'event';
  if (link.startsWith('/user/')) return 'person';
  return null;
}

const SECTIONS: { kind: ResultKind; title: string }[] = [
  { kind: 'event', title: 'Events' },
  { kind: 'photo', title: 'Photos and videos' },
  { kind: 'person', title: 'People' },
];

/**
 * The search results page: what the header's search box finds for `?q=` (Enter with no
 * suggestion chosen opens it), as cards with their pictures, grouped as events, photos and
 * videos, and people.
 */
export function SearchPage() {
  const [params] = useSearchParams();
  const query = searchQueryOf(params);
  const { data, isLoading, error } = useQuery({ ...pageQuery(PAGE_DATA.search(query)), enabled: query !== '' });
  const results = data?.searchResults ?? [];
  usePageHead(
    query
      ? { title: `Results for “${query}”`, description: `Events, photos, videos and people matching “${query}”.` }
      : null,
  );
  if (!query)
    return (
      <PageLayout>
        <h1>Search</h1>
        <p>Type what you are looking for in the search box above: an event, a photo or a person.</p>
      </PageLayout>
    );
  return (
    <PageLayout>
      <h1>Results for “{query}”</h1>
      <QueryState
        isLoading={isLoading}
        error={error}
        empty={results.length === 0}
        emptyText={`No results for “${query}”`}
        emptyHint="Try another name of an event, a photo or a person."
        skeleton={<CardsSkeleton />}
      >
        {SECTIONS.map(({ kind, title }) => {
          const found = results.filter((r) => kindOf(r) === kind);
          if (found.length === 0) return null;
          return (
            <section key={kind} aria-label={title}>
              <h2>{title}</h2>
              <Results>
                {found.map((r, i) => (
                  <ResultCard key={r.urlLink} result={r} kind={kind} index={i} />
                ))}
              </Results>
            </section>
          );
        })}
      </QueryState>
    </PageLayout>
  );
}

function ResultCard({ result, kind, index }: { result: SearchResult; kind: ResultKind; index: number }) {
  // A person without a picture shows the generic one, as everywhere else (SPEC.md section 3).
  const picture = safeHref(result.iconUrl) ?? (kind === 'person' ? DEFAULT_AVATAR : null);
  const link = safeHref(result.urlLink);
  const body = (
    <>
      {picture && <img src={picture} alt="" {...pictureLoading(index)} />}
      <h3>{result.name}</h3>
    </>
  );
  return (
    <Card as="li">
      {link?.startsWith('/') ? <Link to={link}>{body}</Link> : link ? <a href={link}>{body}</a> : body}
    </Card>
  );
}
