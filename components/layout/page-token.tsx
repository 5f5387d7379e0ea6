import { config } from '@/lib/config';
import { issuePageToken } from '@/lib/api/access';

/**
 * When API_KEYS closes the published API, Lantern's own pages still call it from the browser: they
 * read this short-lived, server-signed token (never a key) and send it as X-Lantern-Page-Token.
 */
export function PageToken() {
  if (config().apiKeys.length === 0) return null;
  return <meta name="lantern-page-token" content={issuePageToken()} />;
}
