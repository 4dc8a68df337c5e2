// The ticket schema the support agent decides on.
export class Ticket {
  amountCents!: number;
  tier: 'gold' | 'silver' = 'gold';
  extra: unknown = null;
}
