"""Chat, SMS, email and social SDKs: sends and deletes next to history and lookups."""

import discord
import resend
import telegram
import tweepy
from postmarker.core import PostmarkClient
from sendgrid import SendGridAPIClient
from slack_sdk import WebClient
from twilio.rest import Client as TwilioClient


def slack(channel: str, ts: str, text: str) -> None:
    slack_client = WebClient(token="xoxb")
    slack_client.chat_postMessage(channel=channel, text=text)  # W sinks.messaging communication
    slack_client.chat_delete(channel=channel, ts=ts)  # W messaging.slack communication
    slack_client.chat_update(channel=channel, ts=ts, text=text)  # W messaging.slack communication
    slack_client.conversations_invite(channel=channel, users="U1")  # W messaging.slack communication
    slack_client.files_sharedPublicURL(file="F1")  # W messaging.slack communication
    slack_client.conversations_history(channel=channel)  # R
    slack_client.conversations_replies(channel=channel, ts=ts)  # R
    slack_client.files_info(file="F1")  # R


def email(to: str, body: str) -> None:
    resend.Broadcasts.send({"broadcast_id": "b"})  # W messaging.resend communication
    resend.Contacts.create({"email": to})  # W messaging.resend communication
    resend.ApiKeys.create({"name": "agent"})  # W messaging.resend_keys access
    resend.Domains.remove("d")  # W messaging.resend communication
    resend.Domains.list()  # R
    sg = SendGridAPIClient("key")
    sg.client.marketing.contacts.put(request_body={"contacts": [{"email": to}]})  # W messaging.sendgrid communication
    sg.client.templates.get()  # R
    postmark = PostmarkClient(server_token="t")
    postmark.emails.send(From="a@example.com", To=to, Subject="s", HtmlBody=body)  # W messaging.postmark communication
    postmark.bounces.get()  # R


def sms_and_social(to: str, text: str) -> None:
    twilio = TwilioClient("sid", "token")
    twilio.calls.create(to=to, from_="+1", url="https://example.com/twiml")  # W messaging.twilio communication
    twilio.messages.list(limit=5)  # R
    bot = telegram.Bot(token="t")
    bot.send_message(chat_id=1, text=text)  # W messaging.telegram communication
    bot.ban_chat_member(chat_id=1, user_id=2)  # W messaging.telegram communication
    bot.get_me()  # R
    tweets = tweepy.Client(bearer_token="t")
    tweets.create_tweet(text=text)  # W messaging.twitter communication
    tweets.retweet(123)  # W messaging.twitter communication
    tweets.get_me()  # R
    tweets.search_recent_tweets(query=text)  # R
    hook = discord.SyncWebhook.from_url("https://discord.example/hook")
    hook.send(content=text)  # W messaging.discord communication
    hook.fetch()  # R
