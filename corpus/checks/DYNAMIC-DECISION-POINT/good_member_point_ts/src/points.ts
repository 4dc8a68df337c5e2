// Decision point names, fixed in code and reviewed with their EMUs.

export const BILLING = 'support.billing';
export const POINTS = { refund: 'support.refund' } as const;
