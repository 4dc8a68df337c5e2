"""Seed 003, "Memory Scopes": keep "untrusted external content out of `shared/**`" — shared
files are injected into every user's prompt block as policy."""
import os

from fastapi import FastAPI, Request
from memexai import MemexAI

app = FastAPI()
memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])


@app.post("/feedback")
async def feedback(request: Request, session):
    body = await request.json()
    memory = memex.for_user(session.user_id, actor="support-web")
    await memory.write_file("shared/ops/known-issues.md", body["note"], reason="customer report")  # EXPECT: SELF-MODIFYING-AUTHORITY
    await memory.patch_file("shared/ops/support-playbook.md", "append_lines",  # EXPECT: SELF-MODIFYING-AUTHORITY
                            after_heading="# Escalation", lines=[body["rule"]], reason="customer report")
