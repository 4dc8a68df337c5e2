"""A Streamlit app keeps the model's messages in `st.session_state`; its Reset button runs a
fixed command. Writing into the `st` module does not make every `st.*` call model output
(found in claude-quickstarts' computer-use demo)."""

import subprocess

import streamlit as st
from anthropic import Anthropic

client = Anthropic()

if "messages" not in st.session_state:
    st.session_state.messages = []

prompt = st.chat_input("Ask")
if prompt:
    reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=256,
                                   messages=[{"role": "user", "content": prompt}])
    st.session_state.messages.append(reply.content[0].text)
    st.session_state.last = reply.content[0].text

if st.button("Reset", type="primary"):  # EXPECT-NOT: HIDDEN-AUTHORITY
    subprocess.run(["./restart_display.sh"])  # EXPECT-NOT: UNGOVERNED-PATH
