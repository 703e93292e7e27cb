import { useQueryClient } from '@tanstack/react-query';
import { apiCall, apiCallWith, callKey, safeHref, type OrderActionRequest } from '@marketplace/shared';
import { useUndoableRemoval } from '../uploads/useUndoableRemoval.js';
import { useUploads } from '../uploads/useUploads.js';

/** The order's changes: each goes through the API, then the details are fetched again. */
export function useOrderActions(orderId: string) {
  const queryClient = useQueryClient();
  // The order's details under any sharingId.
  const refetch = () => queryClient.invalidateQueries({ queryKey: callKey('getEventOrderDetails', { orderId }) });
  const uploads = useUploads(orderId, () => void refetch());
  const removal = useUndoableRemoval(async (targetId, leaving) => {
    await apiCallWith({ keepalive: leaving }, 'removeTarget', { targetId });
    await refetch();
  });

  return {
    /** The files chosen, each as it goes (sent files until the order lists them). */
    uploads: uploads.rows,
    /** Sends the files one at a time; one refused does not stop the others. */
    upload: uploads.upload,
    /** Files removed and not yet gone: hidden, and offered back until their removal is sent. */
    removals: removal.removals,
    removalFailure: removal.failure,
    /** Hides the file and removes it after a while, unless undone (useUndoableRemoval). */
    remove: removal.remove,
    undoRemoval: removal.undo,
    /** SPEC.md section 4: on a 200 the order is fetched again. */
    async cancel() {
      await apiCall('updateEventOrderStatus', { orderId, status: 'CANCELLED' });
      await refetch();
    },
    /** A change of the order's state (ask, answer, quote, decline, approve, deliver). */
    async change(request: OrderChange) {
      await apiCall('changeEventOrder', { ...request, orderId } as OrderActionRequest);
      await refetch();
    },
    /** Pays the approved quote: on to the payment page; the provider's confirmation secures the order. */
    async pay() {
      const { purchase } = await apiCall('payEventOrder', { orderId });
      const payUrl = safeHref(purchase.payUrl);
      if (payUrl) window.location.assign(payUrl);
      else await refetch();
    },
    /** Ends the sharing link; the order is read again with its new one. */
    async resetSharing() {
      await apiCall('resetOrderSharing', { orderId });
      await refetch();
    },
    async changeDescription(targetId: number, description: string) {
      await apiCall('changeTargetDescription', { orderId, targetId, description });
      await refetch();
    },
  };
}

export type OrderActions = ReturnType<typeof useOrderActions>;

/** A change as the page asks for it: the order is the page's. */
export type OrderChange = OrderActionRequest extends infer R ? (R extends unknown ? Omit<R, 'orderId'> : never) : never;
