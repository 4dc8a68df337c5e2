import shutil
import smtplib

from langchain.tools import tool


@tool
def send_email(to: str, body: str) -> str:
    """Send an email."""
    with smtplib.SMTP("localhost") as server:
        server.sendmail("ops@example.com", to, body)  # EXPECT: UNGOVERNED-PATH
    return "sent"


@tool
def delete_folder(path: str) -> str:
    """Delete a folder."""
    shutil.rmtree(path)  # EXPECT: UNGOVERNED-PATH
    return "deleted"


@tool
def refund(charge_id: str) -> str:
    """Refund a charge."""
    import stripe
    stripe.Refund.create(charge=charge_id)  # EXPECT: UNGOVERNED-PATH
    return "refunded"
