import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiCall } from '@marketplace/shared';

const eventQuery = (eventIdentifier: string) => ({
  queryKey: ['event', eventIdentifier],
  queryFn: () => apiCall('getEvent', { eventIdentifier }),
});

export const useEvents = () => useQuery({ queryKey: ['events'], queryFn: () => apiCall('getEvents', { limit: 50 }) });
export const useEvent = (eventIdentifier: string) => useQuery(eventQuery(eventIdentifier));
/** Loads an event page's data ahead of the click (kept fresh for the default stale time). */
export const prefetchEvent = (client: QueryClient, eventIdentifier: string) => client.prefetchQuery(eventQuery(eventIdentifier));
export const usePosts = () => useQuery({ queryKey: ['posts'], queryFn: () => apiCall('getPosts', { limit: 50 }) });
export const useCreator = (profileName: string) =>
  useQuery({ queryKey: ['profile', profileName], queryFn: () => apiCall('getProfile', { profileName }) });
