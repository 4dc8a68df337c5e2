import anthropic
import stripe

claude = anthropic.Anthropic()


def review_refund(ticket, amount: int):
    reply = claude.messages.create(
        model="claude-haiku-4-5", max_tokens=5,
        messages=[{"role": "user", "content": f"Answer approve or reject: refund {amount}?"}])
    verdict = reply.content[0].text.strip().lower()
    if verdict != "reject":  # EXPECT: UNSAFE-FALLBACK, HIDDEN-AUTHORITY
        stripe.Refund.create(charge=ticket.charge_id, amount=amount)  # EXPECT: UNGOVERNED-PATH
