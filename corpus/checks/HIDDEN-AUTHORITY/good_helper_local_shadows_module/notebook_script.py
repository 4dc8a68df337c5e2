# The same script shape, but each helper's `response` is its own local (or parameter): the
# module's model answer never reaches them (found auditing anthropic-cookbook notebooks).
import os
import shutil

import anthropic
import requests

client = anthropic.Anthropic()


def download(url, folder):
    response = requests.get(url)
    if response.status_code == 200:  # EXPECT-NOT: HIDDEN-AUTHORITY
        with open(os.path.join(folder, "report.pdf"), "wb") as file:  # EXPECT-NOT: UNGOVERNED-PATH
            file.write(response.content)


def tidy(folder, response):
    if response.ok:  # EXPECT-NOT: HIDDEN-AUTHORITY
        shutil.rmtree(folder)  # EXPECT-NOT: UNGOVERNED-PATH


download("https://example.com/q3.pdf", "reports")
response = client.messages.create(model="claude-sonnet-4-5", max_tokens=256,
                                  messages=[{"role": "user", "content": "Summarise Q3."}])
print(response.content[0].text)
