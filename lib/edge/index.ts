// Lantern's front door: what is answered before a request reaches Next's routes (docs/architecture.md,
// "The front door", says which part runs under `npm start`, `next start` and `npm run dev`).
// - routes.ts: the methods each path serves, read from the route modules (route-methods.json).
// - request.ts: checks on a request's method, path and headers; run by server.ts and by proxy.ts.
// - server.ts: the node:http front of `npm start` (socket-level limits no proxy can see).
// - actions.ts: server actions' origin and size (checkActionHead, also run by proxy.ts) and argument
//   checks (they need the body: `npm start` only).
// - answers.ts: the answers, in the route handlers' error shape (lib/api/ledger-errors.ts on ledger paths).
export { BASE_HEADERS, errorBody, render, type Answer } from './answers';
export { MAX_ACTION_BYTES, MAX_ACTION_DEPTH, actionIdsOf, checkActionHead, guardAction, isActionRequest } from './actions';
export { checkRequest, hasDotSegment } from './request';
export { ROUTE_METHODS, SERVER_METHODS, allowedMethods, routeFor, type RouteMethods } from './routes';
export { MAX_HEADER_BYTES, createGuardedServer, onClientError, rawResponse, refuseBadTarget, send } from './server';
