import type { StaffRow } from '@enishi/contract';
import { useEffect, useState } from 'react';
import { useChatEvent, useChatStatus } from '@/lib/chat/events';
import { sendFrame } from '@/lib/chat/live-socket';

/**
 * The staff with who is online (product.md §17): asked for with a `staff` frame whenever the socket is (again)
 * live, then kept current by `updateConnection` frames. null until the first list arrives.
 */
export function useStaffList(): StaffRow[] | null {
  const [rows, setRows] = useState<StaffRow[] | null>(null);
  const status = useChatStatus();

  useEffect(() => {
    if (status === 'live') sendFrame({ type: 'staff' });
  }, [status]);

  useChatEvent('call', (frame) => {
    if (frame.type === 'staff') setRows(frame.rows);
    else if (frame.type === 'updateConnection') {
      setRows(
        (current) =>
          current?.map((row) => (row.uid === frame.uid ? { ...row, isOnline: frame.isOnline } : row)) ??
          current,
      );
    }
  });

  return rows;
}
