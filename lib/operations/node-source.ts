import { LanternError } from '@/lib/errors';

// Until an operation's own source lands, node mode says so plainly instead of pretending.
export const nodeSourceMissing = (what: string) =>
  new LanternError(503, 'upstream_unavailable', `Lantern's own ${what} source is not available in this build; set DATA_API_KEY to use the hosted API.`);
