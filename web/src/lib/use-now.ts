import { useEffect, useState } from 'react';

/** The current time, renewed every `intervalMs` (labels such as 今日 and the auto-reply depend on it). */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
