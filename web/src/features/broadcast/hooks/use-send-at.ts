import { jaMember, slotOf } from '@enishi/contract';
import { useState } from 'react';
import { sendAtOf } from '../utils/send-at';

/**
 * 予約送信 on the bulk-send form (product.md §4.6): whether to send later, the time picked (Japan time), the
 * earliest it may be (the current minute), and `sendAt()`: null to send now, the call's `send_at`, or why not.
 */
export function useSendAt() {
  const [later, setLater] = useState(false);
  const [at, setAt] = useState('');
  const min = slotOf(new Date());

  function sendAt(): { send_at: string } | { wrong: string } | null {
    if (!later) return null;
    if (!at) return { wrong: jaMember.broadcast.sendAtMissing };
    if (at < min) return { wrong: jaMember.broadcast.sendAtPast };
    return { send_at: sendAtOf(at) };
  }

  return { later, setLater, at, setAt, min, sendAt };
}
