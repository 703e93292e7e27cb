import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, callKey, statusOf, useSession, type ApiResponse } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';

type SummaryAnswer = ApiResponse<'getCartSummary'>;

/**
 * The summary's cache key: the call's own (so `callKey('getCartSummary')` selects it), then the
 * cart it priced. The session store owns the cart; any change to it (an item added in another
 * tab's page, removed here, merged at log in) is a new key, so the server prices it again.
 */
export const cartSummaryKey = (items: readonly string[], profileName: string | null) =>
  [...callKey('getCartSummary'), { items, profileName }] as const;

/**
 * What the session's cart costs, as the server prices it (never added up here), and the
 * discount code's two calls, whose answers are the new summary for the same cart.
 */
export function useCartSummary() {
  const queryClient = useQueryClient();
  // One string, so the selector's answer is stable while the cart's identifiers are.
  const joined = useSession((s) => s.cart.map((item) => item.identifier).join('\n'));
  const profileName = useSession((s) => s.user?.profileName ?? null);
  const queryKey = cartSummaryKey(joined ? joined.split('\n') : [], profileName);
  const summary = useQuery({
    queryKey,
    queryFn: () => apiCall('getCartSummary'),
    // The last totals stay on screen (marked busy) while a changed cart is priced.
    placeholderData: keepPreviousData,
    retry: false,
  });
  const store = (answer: SummaryAnswer) => queryClient.setQueryData(queryKey, answer);
  const applyCode = useMutation({
    mutationFn: (code: string) => apiCall('applyDiscountCode', { code }),
    onSuccess: store,
  });
  const removeCode = useMutation({
    mutationFn: () => apiCall('removeDiscountCode'),
    onSuccess: store,
  });
  return { summary, applyCode, removeCode };
}

/**
 * What to tell the user when a call about their cart failed: the API's reason for a refusal
 * (a code unknown, expired or for none of the cart's items), a plain sentence for the rest.
 */
export function refusalText(error: unknown, fallback: string): string {
  const status = statusOf(error);
  return status >= 400 && status < 500 ? messageOf(error, fallback) : fallback;
}
