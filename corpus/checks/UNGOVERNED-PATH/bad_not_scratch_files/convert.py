"""The same tool writing and removing files that are not its own scratch: a path the model
gives, and a file under the system temp directory that other programs share."""

import os
import tempfile

import requests
from smolagents import tool


@tool
def convert_url(url: str, keep_as: str) -> str:
    """Convert a document at a URL and keep it.

    Args:
        url: the document.
        keep_as: where to keep it.
    """
    response = requests.get(url, timeout=30)
    with open(keep_as, "wb") as kept:  # EXPECT: UNGOVERNED-PATH
        kept.write(response.content)
    shared = tempfile.gettempdir()
    os.unlink(os.path.join(shared, "previous.pdf"))  # EXPECT: UNGOVERNED-PATH
    return keep_as
