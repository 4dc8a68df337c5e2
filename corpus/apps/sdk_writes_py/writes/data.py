"""Database drivers, document and key-value stores: writes next to reads."""

import asyncpg
import duckdb
import redis
from pymongo import MongoClient
from supabase import create_client


async def sql(sql_text: str) -> None:
    conn = await asyncpg.connect("postgresql://localhost/app")
    await conn.execute(sql_text)  # W datastores.sql_execute data_write
    await conn.fetch("SELECT 1")  # R
    duckdb.sql(sql_text)  # W local.duckdb code_execution
    duckdb.query_df(None, "dataset", sql_text)  # W local.duckdb_query_df code_execution


def documents(doc: dict) -> None:
    mongo = MongoClient("mongodb://localhost")
    mongo.app.orders.insert_one(doc)  # W datastores.mongo data_write
    mongo.app.orders.find_one_and_update({}, {"$set": doc})  # W datastores.mongo data_write
    mongo.app.orders.find({})  # R
    mongo.app.orders.count_documents({})  # R
    supa = create_client("https://x.supabase.co", "key")
    supa.table("orders").insert(doc).execute()  # W datastores.supabase data_write
    supa.table("orders").select("*").execute()  # R


def key_values(key: str, value: str) -> None:
    cache = redis.Redis()
    cache.set(key, value)  # W datastores.redis data_write
    cache.hset("h", key, value)  # W datastores.redis data_write
    cache.get(key)  # R
    cache.hgetall("h")  # R
