import { useEffect, useState } from 'react';

/** Seconds left until `deadline` (epoch ms), updated every second; 0 once it has passed. */
export function useCountdown(deadline: number): number {
  const left = (): number => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  });
  return seconds;
}
