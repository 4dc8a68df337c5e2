"""A document tool downloads to a file it makes with `tempfile` and removes it before it returns:
scratch files, no effect on anyone's data (found in smolagents' open_deep_research mdconvert)."""

import os
import shutil
import tempfile

import requests
from smolagents import tool


@tool
def convert_url(url: str) -> str:
    """Convert a document at a URL to text.

    Args:
        url: the document.
    """
    response = requests.get(url, timeout=30)
    handle, temp_path = tempfile.mkstemp()
    with os.fdopen(handle, "wb") as scratch:  # EXPECT-NOT: UNGOVERNED-PATH
        scratch.write(response.content)
    workdir = tempfile.mkdtemp()
    try:
        return f"{temp_path} in {workdir}"
    finally:
        os.unlink(temp_path)  # EXPECT-NOT: UNGOVERNED-PATH
        shutil.rmtree(workdir)  # EXPECT-NOT: UNGOVERNED-PATH
