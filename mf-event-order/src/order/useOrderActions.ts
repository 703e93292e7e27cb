import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall, callKey, safeHref, type OrderActionRequest } from '@marketplace/shared';
import { uploadFiles } from '../uploads/uploadFiles.js';

/** The order's changes: each goes through the API, then the details are fetched again. */
export function useOrderActions(orderId: string) {
  const queryClient = useQueryClient();
  // The order's details under any sharingId.
  const refetch = () => queryClient.invalidateQueries({ queryKey: callKey('getEventOrderDetails', { orderId }) });
  const [progress, setProgress] = useState<{ uploaded: number; total: number } | null>(null);

  return {
    progress,
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
    async upload(files: readonly File[]) {
      await uploadFiles(orderId, files, (uploaded, total) => setProgress({ uploaded, total }));
      await refetch();
    },
    async changeDescription(targetId: number, description: string) {
      await apiCall('changeTargetDescription', { orderId, targetId, description });
      await refetch();
    },
    async remove(targetId: number) {
      await apiCall('removeTarget', { targetId });
      await refetch();
    },
  };
}

export type OrderActions = ReturnType<typeof useOrderActions>;

/** A change as the page asks for it: the order is the page's. */
export type OrderChange = OrderActionRequest extends infer R ? (R extends unknown ? Omit<R, 'orderId'> : never) : never;
