import json

import stripe
from openai import OpenAI

client = OpenAI()
AUTO_REFUND = 0.8


def triage(ticket) -> None:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": ticket.text}])
    verdict = json.loads(reply.choices[0].message.content)
    # The routing test picks the branch; the threshold beneath it is what authorizes the refund.
    if verdict["action"] == "refund":  # EXPECT: HIDDEN-AUTHORITY
        if verdict["confidence"] >= AUTO_REFUND:  # EXPECT: HIDDEN-AUTHORITY
            stripe.Refund.create(charge=ticket.charge_id)  # EXPECT: UNGOVERNED-PATH
