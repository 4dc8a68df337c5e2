import shutil
import smtplib

from langchain.tools import tool


@tool
def send_email(to: str, body: str) -> str:
    """Send an email."""
    with smtplib.SMTP("localhost") as server:
        server.sendmail("ops@example.com", to, body)  # EXPECT-NOT: UNGOVERNED-PATH
    return "sent"


@tool
def delete_folder(path: str) -> str:
    """Delete a folder."""
    shutil.rmtree(path)  # EXPECT-NOT: UNGOVERNED-PATH
    return "deleted"
