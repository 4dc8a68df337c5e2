import { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } from '@aws-sdk/client-s3';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { google } from 'googleapis';
import { Client } from '@microsoft/microsoft-graph-client';

const s3 = new S3Client({});
const ses = new SESClient({});

export async function aws(bucket: string, key: string, body: string) {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body })); // W cloud.ts.aws data_write
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })); // W cloud.ts.aws_delete deletion
  await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })); // R
  await ses.send(new SendEmailCommand({ Source: 'a@example.com', Destination: {}, Message: undefined })); // W cloud.ts.aws_send communication
}

export async function workspace(raw: string) {
  const gmail = google.gmail({ version: 'v1' });
  await gmail.users.messages.send({ userId: 'me', requestBody: { raw } }); // W cloud.ts.gmail_send communication
  await gmail.users.messages.list({ userId: 'me' }); // R
  const drive = google.drive({ version: 'v3' });
  await drive.files.create({ requestBody: { name: 'notes' } }); // W cloud.ts.google data_write
  await drive.files.list({ q: "name contains 'x'" }); // R
  const auth = new google.auth.OAuth2('id', 'secret');
  auth.setCredentials({ access_token: 't' }); // R
}

export async function graph(body: object) {
  const client = Client.init({ authProvider: () => {} });
  await client.api('/me/sendMail').post(body); // W cloud.ts.graph data_write
  await client.api('/me/messages').get(); // R
}
