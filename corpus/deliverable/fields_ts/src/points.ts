// Decision point names, held in one module and imported where the decisions are made.

export const REFUND_POINT = 'billing.refund';
export const AUDIT_POINT = 'billing.audit';

// Points grouped on an object, read as `POINTS.gift`.
export const POINTS = { gift: 'billing.gift' } as const;
