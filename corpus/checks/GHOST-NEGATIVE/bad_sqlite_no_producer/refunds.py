import sqlite3

import stripe

conn = sqlite3.connect("refunds.db")


def refund_once(request_id: str, charge_id: str):
    row = conn.execute("SELECT id FROM refunds WHERE request_id = ?", (request_id,)).fetchone()
    if row is None:  # EXPECT: GHOST-NEGATIVE
        stripe.Refund.create(charge=charge_id)
