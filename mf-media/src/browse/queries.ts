import { useQuery, type QueryClient } from '@tanstack/react-query';
import { callQuery } from '@marketplace/shared';

export const useEvents = () => useQuery(callQuery('getEvents', { limit: 50 }));
export const useEvent = (eventIdentifier: string) => useQuery(callQuery('getEvent', { eventIdentifier }));
/** Loads an event page's data ahead of the click (kept fresh for the default stale time). */
export const prefetchEvent = (client: QueryClient, eventIdentifier: string) =>
  client.prefetchQuery(callQuery('getEvent', { eventIdentifier }));
export const usePosts = () => useQuery(callQuery('getPosts', { limit: 50 }));
export const useCreator = (profileName: string) => useQuery(callQuery('getProfile', { profileName }));
