import 'client-only';
/**
 * Recent searches, kept in this browser only (localStorage): what was typed and when. Nothing about
 * them reaches the server until the person opens one again.
 */
export const RECENT_KEY = 'lantern-recent-searches';
export const RECENT_MAX = 8;

export interface RecentSearch {
  q: string;
  at: number;
}

export function parseRecent(raw: string | null): RecentSearch[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    return v
      .filter((x): x is RecentSearch => !!x && typeof x === 'object' && typeof (x as RecentSearch).q === 'string' && typeof (x as RecentSearch).at === 'number')
      .map((x) => ({ q: x.q.slice(0, 256), at: x.at }))
      .slice(0, RECENT_MAX);
  } catch {
    return [];
  }
}

/** Newest first, one entry per query (case-insensitive for addresses), at most RECENT_MAX. */
export function addRecent(list: RecentSearch[], q: string, at: number): RecentSearch[] {
  const query = q.trim().slice(0, 256);
  if (!query) return list;
  const key = query.toLowerCase();
  return [{ q: query, at }, ...list.filter((x) => x.q.toLowerCase() !== key)].slice(0, RECENT_MAX);
}

export function rememberSearch(q: string) {
  try {
    const next = addRecent(parseRecent(localStorage.getItem(RECENT_KEY)), q, Date.now());
    localStorage.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // storage unavailable: searching still works, it just is not remembered
  }
}
