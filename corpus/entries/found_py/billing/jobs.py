"""Scheduled jobs and queue consumers that refund without a person or a model asking."""

import pika
import schedule
from apscheduler.schedulers.background import BackgroundScheduler
from celery import Celery, shared_task
from huey import RedisHuey, crontab
from redis import Redis
from rq import Queue

from billing.payments import issue_refund

celery_app = Celery("billing", broker="redis://localhost")
scheduler = BackgroundScheduler()


@celery_app.task(queue="refunds")
def refund_from_queue(charge_id: str, amount_cents: int) -> None:
    issue_refund(charge_id, amount_cents)


@shared_task
def refund_shared(charge_id: str) -> None:
    issue_refund(charge_id, 100)


@scheduler.scheduled_job("cron", hour=3)
def nightly_refunds() -> None:
    issue_refund("ch_nightly", 500)


def hourly_refunds() -> None:
    issue_refund("ch_hourly", 100)


def daily_refunds() -> None:
    issue_refund("ch_daily", 100)


scheduler.add_job(hourly_refunds, "interval", hours=1)
schedule.every().day.at("03:00").do(daily_refunds)


def on_refund_message(channel, method, properties, body) -> None:
    issue_refund(body.decode(), 100)


channel = pika.BlockingConnection(pika.ConnectionParameters("localhost")).channel()
channel.basic_consume(queue="refund-requests", on_message_callback=on_refund_message)


huey = RedisHuey("billing")


@huey.periodic_task(crontab(minute="0", hour="4"))
def huey_nightly_refunds() -> None:
    issue_refund("ch_huey", 100)


def refund_later(charge_id: str) -> None:
    issue_refund(charge_id, 100)


def enqueue_refund(charge_id: str) -> None:
    Queue(connection=Redis()).enqueue(refund_later, charge_id)
