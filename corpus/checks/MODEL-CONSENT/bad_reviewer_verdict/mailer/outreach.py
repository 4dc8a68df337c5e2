"""A drafting model writes the campaign email; a reviewer model "approves" it."""

import json

import resend
from openai import OpenAI

client = OpenAI()


def send_campaign(brief: str, recipients: list[str]) -> str:
    draft = client.responses.create(model="gpt-4o", input=f"Write an email: {brief}")
    review = client.responses.create(
        model="gpt-4o-mini",
        input=f'Review this email. Answer JSON {{"approved": bool}}.\n{draft.output_text}',
    )
    verdict = json.loads(review.output_text)
    if verdict["approved"]:  # EXPECT: MODEL-CONSENT, HIDDEN-AUTHORITY
        resend.Emails.send({"from": "news@example.com", "to": recipients,  # EXPECT: UNGOVERNED-PATH
                            "subject": brief, "text": draft.output_text})
        return "sent"
    return "rejected by review"
