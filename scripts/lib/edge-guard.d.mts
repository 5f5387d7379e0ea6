import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export const MAX_HEADER_BYTES: number;
export const MAX_ACTION_BYTES: number;
export const MAX_ACTION_DEPTH: number;
export const SERVER_METHODS: string;
export function allowedMethods(pathname: string): string;
export function createGuardedServer(onRequest: (req: IncomingMessage, res: ServerResponse) => void): Server;
export function refuseBadTarget(req: IncomingMessage, res: ServerResponse): boolean;
export function isActionRequest(req: IncomingMessage): boolean;
export function actionIdsOf(manifestJson: string): Set<string> | undefined;
export function guardAction(
  req: IncomingMessage,
  res: ServerResponse,
  publicOrigins: string[],
  pass: (replayed: IncomingMessage) => void,
  actionIds?: Set<string>,
): Promise<void>;
