import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callQuery, SEARCH_DEBOUNCE_MS, type SearchResult } from '@marketplace/shared';

/** The value, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What the search box shows for the typed text. */
export interface SearchState {
  results: SearchResult[];
  /** The query the server answered with nothing: the box says 'No results for “…”'; null otherwise. */
  noResultsFor: string | null;
}

/** No results, the same array each time: what shows them need not render again. */
const NONE: SearchResult[] = [];

/**
 * Search results for the typed text, debounced 100 ms (SPEC.md section 5). Each query is its own
 * cache entry, so a slow answer to an older query can never show under a newer one; an empty
 * query has no results at all. An empty answer to the query typed (not a previous one still
 * shown while it loads) is told apart, for the box to say so.
 */
export function useSearch(typed: string): SearchState {
  const query = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const enabled = query !== '' && typed.trim() !== '';
  const { data, isPlaceholderData, isSuccess } = useQuery({
    ...callQuery('search', { query }),
    select: (r): SearchResult[] => r.searchResults,
    enabled,
    staleTime: 60_000,
    // While the next query loads, the previous results stay (never the other way round).
    placeholderData: keepPreviousData,
  });
  const results = enabled ? (data ?? NONE) : NONE;
  const answered = enabled && isSuccess && !isPlaceholderData && query === typed.trim();
  return { results, noResultsFor: answered && results.length === 0 ? query : null };
}
