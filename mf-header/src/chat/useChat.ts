import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, callKey, callQuery, type ApiResponse } from '@marketplace/shared';

export const chatKey = (profileName: string) => callKey('getChatMessages', { profileName });

type Conversation = ApiResponse<'getChatMessages'>;

/**
 * One conversation: its messages, and sending a new one (appended once the server has it). When
 * its window opens, and each time its messages are read again (a message arrived), the server is
 * told it is read (openChat), whether or not the messages came from the cache.
 */
export function useChat(profileName: string) {
  const queryClient = useQueryClient();
  const conversation = useQuery({
    ...callQuery('getChatMessages', { profileName }),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const { dataUpdatedAt } = conversation;
  useEffect(() => {
    // Once the messages are on the screen (from the cache at once, or once loaded).
    if (dataUpdatedAt > 0) apiCall('openChat', { profileName }).catch(() => undefined);
  }, [profileName, dataUpdatedAt]);
  const send = useMutation({
    mutationFn: (content: string) => apiCall('sendChatMessage', { profileName, content }),
    onSuccess: ({ message }) =>
      queryClient.setQueryData<Conversation>(
        chatKey(profileName),
        (c) => (c && !c.messages.some((m) => m.id === message.id) ? { ...c, messages: [...c.messages, message] } : c),
        // One's own message is not a read of the conversation: keeping its time keeps openChat quiet.
        { updatedAt: queryClient.getQueryState(chatKey(profileName))?.dataUpdatedAt },
      ),
  });
  return { conversation, send };
}
