import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall, callKey } from '@marketplace/shared';
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
