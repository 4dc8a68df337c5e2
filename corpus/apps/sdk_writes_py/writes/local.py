"""Local effects: file writes, git and IMAP next to reads and non-writing calls."""

import imaplib
import shutil
from pathlib import Path

from git import Repo


def files(path: str, text: str) -> None:
    with open(path, "w") as out:  # W local.open_write data_write
        out.write(text)
    with open(path, mode="a") as out:  # W local.open_write data_write
        out.write(text)
    with open(path) as source:  # R
        source.read()
    with open(path, "rb") as source:  # R
        source.read()
    target = Path(path)
    target.write_text(text)  # W local.path_write data_write
    with target.open("w") as out:  # W local.path_open_write data_write
        out.write(text)
    with target.open() as source:  # R
        source.read()
    target.read_text()  # R
    shutil.move(path, path + ".bak")  # W local.path_write data_write
    shutil.which("git")  # R


def git(root: str, message: str) -> None:
    repo = Repo(root)
    repo.index.add(["a.txt"])  # W local.gitpython data_write
    repo.index.commit(message)  # W local.gitpython data_write
    repo.git.checkout("main")  # W local.gitpython data_write
    repo.create_head("feature")  # W local.gitpython data_write
    repo.git.status()  # R
    repo.git.diff("HEAD")  # R
    repo.git.branch()  # R
    repo.commit("HEAD")  # R
    repo.iter_commits(max_count=5)  # R


def mailbox(uid: str) -> None:
    imap = imaplib.IMAP4_SSL("imap.example.com")
    imap.store(uid, "+FLAGS", "\\Deleted")  # W local.imaplib data_write
    imap.expunge()  # W local.imaplib data_write
    imap.fetch(uid, "(RFC822)")  # R
    imap.search(None, "ALL")  # R
