/**
 * Placeholders while data streams in. One animation for all of them, and only for people who have not
 * asked for reduced motion.
 */
export const pulse = 'motion-safe:animate-pulse';

/** A grey bar shaped like the text or block it stands for (size it with className). */
export function Skeleton({ className = '' }: { className?: string }) {
  return <span aria-hidden="true" className={`block rounded bg-sunken ${pulse} ${className}`} />;
}
