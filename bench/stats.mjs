// The benches' order statistics: one definition, so every section's p50 means the same.

/** The `p`th percentile of `xs` (0-100): the sorted value at floor(p% of n), never past the last. */
export function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** The median as the benches read it: the upper middle value of an even count. */
export const median = (xs) => pct(xs, 50);
