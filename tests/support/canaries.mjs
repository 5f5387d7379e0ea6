// Known secret values the test build is made with; tests assert they never reach a browser or a body.
export const CANARY_DATA_API_KEY = 'canary-data-api-key-7f3a9c51e2d84b60';
export const CANARY_SESSION_SECRET = 'canary-session-secret-0b1e6d2f4a8c97355e61d0c2b7a94f18';
