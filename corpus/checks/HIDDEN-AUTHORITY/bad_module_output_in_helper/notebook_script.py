# A notebook-style script: the model's answer is a module-level name, and a helper reads it.
import shutil

import anthropic

client = anthropic.Anthropic()


def tidy(folder):
    if response.content[0].text.strip() == "delete":  # EXPECT: HIDDEN-AUTHORITY
        shutil.rmtree(folder)  # EXPECT: UNGOVERNED-PATH


response = client.messages.create(model="claude-sonnet-4-5", max_tokens=16,
                                  messages=[{"role": "user", "content": "Delete the cache?"}])
tidy("cache")
