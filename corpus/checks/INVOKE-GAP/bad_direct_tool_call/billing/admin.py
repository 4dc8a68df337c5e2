"""Back-office actions for support staff."""

from billing.tools import refund_payment


async def force_refund(ticket):
    return await refund_payment({"charge_id": ticket.charge_id,  # EXPECT: INVOKE-GAP
                                 "amount_cents": ticket.amount_cents})
