"""The remaining Python families: PayPal, aiosqlite, Confluence."""

import aiosqlite
import paypalrestsdk
from atlassian import Confluence


def paypal(payment_id: str, payer: str) -> None:
    paypalrestsdk.Payment.create({"intent": "sale"})  # W payments.paypal money
    paypalrestsdk.Payment.find(payment_id)  # R
    paypalrestsdk.Payout.create({"items": [{"receiver": payer}]})  # W payments.paypal money


async def local_sql(sql_text: str) -> None:
    db = await aiosqlite.connect("app.db")
    await db.execute(sql_text)  # W datastores.sql_execute data_write


def wiki(title: str, body: str) -> None:
    confluence = Confluence(url="https://wiki.example")
    confluence.create_page(space="S", title=title, body=body)  # W saas.jira data_write
    confluence.get_page_by_title(space="S", title=title)  # R
