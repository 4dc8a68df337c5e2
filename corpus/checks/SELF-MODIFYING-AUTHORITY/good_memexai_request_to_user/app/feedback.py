"""Twin of bad_memexai_request_to_shared: request content goes to the user's own `user/**`
files; `shared/**` is written only with reviewed text held in the code."""
import os

from fastapi import FastAPI, Request
from memexai import MemexAI

app = FastAPI()
memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])
PLAYBOOK = "# Escalation\n- Escalate payment disputes to a human agent.\n"


@app.post("/feedback")
async def feedback(request: Request, session):
    body = await request.json()
    memory = memex.for_user(session.user_id, actor="support-web")
    await memory.write_file("user/feedback.md", body["note"], reason="customer report")


async def publish_playbook():
    operator = memex.for_user("ops-admin", actor="operator")
    await operator.write_file("shared/ops/support-playbook.md", PLAYBOOK, reason="reviewed")
