import sqlite3

import stripe

conn = sqlite3.connect("refunds.db")


def refund_once(request_id: str, charge_id: str):
    row = conn.execute("SELECT id FROM refunds WHERE request_id = ?", (request_id,)).fetchone()
    if row is None:  # EXPECT-NOT: GHOST-NEGATIVE
        refund = stripe.Refund.create(charge=charge_id, idempotency_key=request_id)
        conn.execute("INSERT INTO refunds (request_id, stripe_id) VALUES (?, ?)",
                     (request_id, refund.id))
        conn.commit()
