import { useQuery, type QueryClient } from '@tanstack/react-query';
import { PAGE_DATA, pageQuery } from '@marketplace/shared';

export const useEvents = () => useQuery(pageQuery(PAGE_DATA.events()));
export const useEvent = (eventIdentifier: string) => useQuery(pageQuery(PAGE_DATA.event(eventIdentifier)));
/** Loads an event page's data ahead of the click (kept fresh for the default stale time). */
export const prefetchEvent = (client: QueryClient, eventIdentifier: string) =>
  client.prefetchQuery(pageQuery(PAGE_DATA.event(eventIdentifier)));
export const usePosts = () => useQuery(pageQuery(PAGE_DATA.posts()));
export const useCreator = (profileName: string) => useQuery(pageQuery(PAGE_DATA.creator(profileName)));
