import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import type { CallName } from '@marketplace/shared';

export interface FeedPage<T> {
  items: T[];
  more: boolean;
  /** The load failed and was shown as an empty page: what the server holds is unknown. */
  failed?: boolean;
}

export interface FeedOptions<T> {
  /** The call the feed pages through, and whose feed it is: together they are the cache key. */
  call: CallName;
  scope: string;
  /** Loads page `pageNo` (0 is the first load). */
  fetchPage: (pageNo: number) => Promise<FeedPage<T>>;
  /** What makes two entries the same entry (a live one replaces the loaded one). */
  idOf: (item: T) => string | number;
}

type FeedData<T> = InfiniteData<FeedPage<T>, number>;

/**
 * A dropdown's paged list (SPEC.md section 5 "Dropdown infinite scroll"): the next page loads
 * only when the server said there is more and no load is running, and the cache can be edited
 * in place for status changes, removals and live entries, whatever page they are on.
 */
export function useFeed<T>({ call, scope, fetchPage, idOf }: FeedOptions<T>) {
  const queryClient = useQueryClient();
  // Stable while the call and scope are: the editors and the live subscription that use it stay too.
  const queryKey = useMemo(() => [call, scope] as const, [call, scope]);
  // Counts the loads started, so a change on the server can tell whether one overlapped it.
  const loadsStarted = useRef(0);
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => {
      loadsStarted.current++;
      return fetchPage(pageParam);
    },
    initialPageParam: 0,
    getNextPageParam: (last, all) => (last.more ? all.length : undefined),
    retry: false,
    refetchOnWindowFocus: false,
  });

  const items = useMemo(() => {
    // A live entry put on top may also arrive again on a later page: show it once.
    const seen = new Set<string | number>();
    return (query.data?.pages ?? [])
      .flatMap((p) => p.items)
      .filter((item) => !seen.has(idOf(item)) && seen.add(idOf(item)));
  }, [query.data, idOf]);

  // The query's own flags change only after a render: a ref closes the gap between two scroll
  // events fired before React re-rendered, so two loads never run at once.
  const loading = useRef(false);
  const { hasNextPage, isFetching, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (!hasNextPage || isFetching || loading.current) return;
    loading.current = true;
    void fetchNextPage({ cancelRefetch: false }).finally(() => {
      loading.current = false;
    });
  }, [hasNextPage, isFetching, fetchNextPage]);

  const edit = useCallback(
    (change: (pages: FeedPage<T>[]) => FeedPage<T>[]) =>
      queryClient.setQueryData<FeedData<T>>(queryKey, (data) => (data ? { ...data, pages: change(data.pages) } : data)),
    [queryClient, queryKey],
  );
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey }), [queryClient, queryKey]);
  const loadingNow = useCallback(() => queryClient.isFetching({ queryKey }) > 0, [queryClient, queryKey]);

  /**
   * Follows a change made on the server (e.g. NEW cleared): a load that overlapped it may answer
   * the list as it was before, so when one did, the list is loaded again once the change is done.
   */
  const afterServerChange = useCallback(
    (change: Promise<unknown>) => {
      const started = loadsStarted.current;
      const busy = loadingNow();
      void change.then(
        () => (busy || loadsStarted.current !== started || loadingNow()) && reload(),
        () => undefined,
      );
    },
    [loadingNow, reload],
  );

  return {
    items,
    /** Loads the list again from the server (e.g. once a live subscription is confirmed). */
    reload,
    afterServerChange,
    hasMore: hasNextPage,
    isLoading: query.isPending,
    /** Every entry the server holds is here: loaded, no more pages, no load failed. */
    complete: query.isSuccess && !hasNextPage && !query.data.pages.some((p) => p.failed),
    loadMore,
    /** Changes every entry that `match` selects. */
    update: useCallback(
      (match: (item: T) => boolean, change: (item: T) => T) =>
        edit((pages) =>
          pages.map((p) => ({ ...p, items: p.items.map((item) => (match(item) ? change(item) : item)) })),
        ),
      [edit],
    ),
    remove: useCallback(
      (id: string | number) =>
        edit((pages) => pages.map((p) => ({ ...p, items: p.items.filter((item) => idOf(item) !== id) }))),
      [edit, idOf],
    ),
    /** Puts an entry on top, dropping the older entry with the same id wherever it is. */
    prepend: useCallback(
      (entry: T) => {
        edit((pages) =>
          pages.map((p, i) => {
            const rest = p.items.filter((item) => idOf(item) !== idOf(entry));
            return { ...p, items: i === 0 ? [entry, ...rest] : rest };
          }),
        );
        // A load under way started before this entry existed: its answer would replace the list
        // without it. Load again instead (the server stores an entry before publishing it).
        if (loadingNow()) reload();
      },
      [edit, idOf, loadingNow, reload],
    ),
  };
}
