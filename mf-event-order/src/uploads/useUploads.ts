import { useRef, useState } from 'react';
import { uploadFiles, type FileUpload } from './uploadFiles.js';

/** A file the person chose, as the page shows it until the order lists it. */
export interface UploadRow {
  key: string;
  name: string;
  upload: FileUpload;
}

const finished = (row: UploadRow) => row.upload.state === 'sent' || row.upload.state === 'refused';

/**
 * The order's uploads under way: a row per chosen file, updated as it goes. `onSent` runs as each
 * file arrives (the order is read again, and lists it). A new choice of files clears the rows the
 * last one finished; rows still under way stay.
 */
export function useUploads(orderId: string, onSent: () => void) {
  const [rows, setRows] = useState<UploadRow[]>([]);
  const batches = useRef(0);

  async function upload(files: readonly File[]): Promise<void> {
    const batch = ++batches.current;
    const keyOf = (i: number) => `${batch}-${i}`;
    setRows((now) => [
      ...now.filter((row) => !finished(row)),
      ...files.map((file, i): UploadRow => ({ key: keyOf(i), name: file.name, upload: { state: 'waiting' } })),
    ]);
    await uploadFiles(orderId, files, (i, change) => {
      setRows((now) => now.map((row) => (row.key === keyOf(i) ? { ...row, upload: change } : row)));
      if (change.state === 'sent') onSent();
    });
  }

  return { rows, upload };
}
