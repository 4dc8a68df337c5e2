"""Found on openai-agents-python's image example: tests of the response's protocol and shape
are not authority. Only the item kind and the value's type are checked before a local viewer
opens a temp file; the model chooses no effect here."""

import base64
import subprocess
import tempfile

from agents import Agent, Runner


async def main() -> None:
    result = await Runner.run(Agent(name="painter"), "Draw a frog.")
    for item in result.new_items:
        if item.type != "tool_call_item":  # EXPECT-NOT: HIDDEN-AUTHORITY
            continue
        call_type = item.raw_item.get("type")
        if call_type != "image_generation_call":  # EXPECT-NOT: HIDDEN-AUTHORITY
            continue
        image = item.raw_item.get("result")
        if not isinstance(image, str):  # EXPECT-NOT: HIDDEN-AUTHORITY
            continue
        with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as handle:
            handle.write(base64.b64decode(image))
        subprocess.run(["xdg-open", handle.name], check=False)  # EXPECT-NOT: UNGOVERNED-PATH
