export const CANARY_DATA_API_KEY: string;
export const CANARY_SESSION_SECRET: string;
