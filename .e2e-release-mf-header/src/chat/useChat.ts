import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, callKey, callQuery, type ApiResponse } from '@marketplace/shared';

export const chatKey = (profileName: string) => callKey('getChatMessages', { profileName });

type Conversation = ApiResponse<'getChatMessages'>;

/** One conversation: its messages, and sending a new one (appended once the server has it). */
export function useChat(profileName: string) {
  const queryClient = useQueryClient();
  const conversation = useQuery({
    ...callQuery('getChatMessages', { profileName }),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const send = useMutation({
    mutationFn: (content: string) => apiCall('sendChatMessage', { profileName, content }),
    onSuccess: ({ message }) =>
      queryClient.setQueryData<Conversation>(chatKey(profileName), (c) =>
        c && !c.messages.some((m) => m.id === message.id) ? { ...c, messages: [...c.messages, message] } : c,
      ),
  });
  return { conversation, send };
}
