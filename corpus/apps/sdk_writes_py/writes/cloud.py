"""AWS, Google and Microsoft Graph: writes next to reads under the same client."""

import boto3
from googleapiclient.discovery import build
from msgraph import GraphServiceClient


def aws(bucket: str, key: str, body: bytes) -> None:
    s3 = boto3.client("s3")
    s3.put_object(Bucket=bucket, Key=key, Body=body)  # W cloud.boto3 data_write
    s3.upload_file("/tmp/f", bucket, key)  # W cloud.boto3 data_write
    s3.delete_object(Bucket=bucket, Key=key)  # W sinks.boto3_delete deletion
    s3.list_objects_v2(Bucket=bucket)  # R
    s3.get_object(Bucket=bucket, Key=key)  # R
    s3.generate_presigned_url("get_object", Params={})  # R
    ses = boto3.client("ses")
    ses.send_email(Source="a@example.com", Destination={}, Message={})  # W cloud.aws_send communication
    iam = boto3.client("iam")
    iam.create_access_key(UserName="agent")  # W sinks.aws_iam access
    iam.get_user(UserName="agent")  # R


def google(user: str, raw: str) -> None:
    gmail = build("gmail", "v1", credentials=None)
    gmail.users().messages().send(userId=user, body={"raw": raw}).execute()  # W cloud.gmail_send communication
    gmail.users().messages().trash(userId=user, id="m1").execute()  # W cloud.google data_write
    gmail.users().messages().list(userId=user).execute()  # R
    drive = build("drive", "v3", credentials=None)
    drive.files().create(body={"name": "notes"}).execute()  # W cloud.google data_write
    drive.files().emptyTrash().execute()  # W cloud.google data_write
    drive.files().list(q="name contains 'x'").execute()  # R
    calendar = build("calendar", "v3", credentials=None)
    calendar.events().insert(calendarId="primary", body={}).execute()  # W cloud.google data_write
    calendar.events().get(calendarId="primary", eventId="e").execute()  # R


async def graph(user_id: str) -> None:
    client = GraphServiceClient(credentials=None)
    await client.me.send_mail.post(body=None)  # W cloud.graph_mail communication
    await client.users.by_user_id(user_id).events.post(body=None)  # W cloud.graph data_write
    await client.users.by_user_id(user_id).messages.get()  # R


def shutdown() -> None:
    s3 = boto3.client("s3")
    s3.close()  # R
