/**
 * The interface (v2.2) as zod schemas: one file per operation. Wire schemas parse what providers send
 * into one internal shape; serialisers write the interface's shape back for Lantern's published API.
 */
export * from './common';
export * from './auth';
export * from './history';
export * from './nfts';
// export * from './ledger'; (added by the ledger schemas)
export { describeZodError } from './zod-errors';
