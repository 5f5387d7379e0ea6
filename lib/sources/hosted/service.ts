/** The hosted API's services, each at its own base URL (DATA_API_URL, AUTH_API_URL, LEDGER_API_URL_*). */
export type HostedService = 'data' | 'auth' | 'ledger-mainnet' | 'ledger-testnet';
