"""A one-off script an operator runs: its top-level code under the main guard is the way in."""

from billing.payments import issue_refund

if __name__ == "__main__":
    issue_refund("ch_backfill", 100)
