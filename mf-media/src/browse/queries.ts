import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@marketplace/shared';

export const useEvents = () => useQuery({ queryKey: ['events'], queryFn: () => apiCall('getEvents', { limit: 50 }) });
export const useEvent = (eventIdentifier: string) =>
  useQuery({ queryKey: ['event', eventIdentifier], queryFn: () => apiCall('getEvent', { eventIdentifier }) });
export const usePosts = () => useQuery({ queryKey: ['posts'], queryFn: () => apiCall('getPosts', { limit: 50 }) });
export const useCreator = (profileName: string) =>
  useQuery({ queryKey: ['profile', profileName], queryFn: () => apiCall('getProfile', { profileName }) });
