export const WARM_UP_FLAG: 'lantern-warm-up';
