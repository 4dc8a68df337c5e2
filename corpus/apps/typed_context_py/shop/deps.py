"""The run's dependencies, declared the way pydantic-ai and the Agents SDK examples do."""

from dataclasses import dataclass
from typing import Any

import aiosqlite
import asyncpg
import httpx
from pydantic import BaseModel


@dataclass
class Deps:
    conn: asyncpg.Connection
    http: httpx.AsyncClient
    loose: Any
    maybe: asyncpg.Connection | None
    later: "asyncpg.Connection"
    either: asyncpg.Connection | httpx.AsyncClient


class Settings(BaseModel):
    deps: Deps


class Store:
    conn: asyncpg.Connection

    def reopen(self) -> None:
        # Declared one class, assigned another: the field names no class.
        self.conn = aiosqlite.connect("local.db")


@dataclass
class AppContext:
    conn: asyncpg.Connection
    store: Store
