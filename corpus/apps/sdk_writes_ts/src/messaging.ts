import { WebClient } from '@slack/web-api';
import { TwitterApi } from 'twitter-api-v2';
import { Resend } from 'resend';
import twilio from 'twilio';
import { ServerClient } from 'postmark';
import { Telegraf } from 'telegraf';

const slack = new WebClient('xoxb');
const resend = new Resend('re_key');
const sms = twilio('sid', 'token');
const postmark = new ServerClient('token');
const bot = new Telegraf('token');

export async function slackOps(channel: string, ts: string, text: string) {
  await slack.chat.postMessage({ channel, text }); // W messaging.ts.slack communication
  await slack.chat.delete({ channel, ts }); // W messaging.ts.slack communication
  await slack.files.sharedPublicURL({ file: 'F1' }); // W messaging.ts.slack communication
  await slack.conversations.history({ channel }); // R
  await slack.conversations.replies({ channel, ts }); // R
  await slack.files.info({ file: 'F1' }); // R
}

export async function twitterOps(text: string, id: string) {
  const twitter = new TwitterApi('bearer');
  await twitter.v2.tweet({ text }); // W messaging.ts.twitter communication
  await twitter.v2.tweetThread([text, text]); // W messaging.ts.twitter communication
  await twitter.v2.retweet('me', id); // W messaging.ts.twitter communication
  await twitter.v1.uploadMedia(Buffer.from(text)); // W messaging.ts.twitter communication
  await twitter.v2.me(); // R
  await twitter.v2.singleTweet(id); // R
  await twitter.v2.search(text); // R
}

export async function emailOps(to: string) {
  await resend.apiKeys.create({ name: 'agent' }); // W messaging.resend_keys access
  await resend.apiKeys.remove('key_1'); // W messaging.resend_keys access
  await resend.domains.remove('d_1'); // W messaging.resend communication
  await resend.broadcasts.send('b_1'); // W messaging.resend communication
  await resend.contacts.create({ email: to, audienceId: 'a' }); // W messaging.resend communication
  await resend.domains.list(); // R
  await postmark.sendEmail({ From: 'a@example.com', To: to, Subject: 's' }); // W sinks.ts.email communication
  await postmark.deleteTemplate(1); // W messaging.postmark communication
  await postmark.getBounces(); // R
}

export async function chatOps(to: string, text: string) {
  await sms.messages.create({ to, from: '+1', body: text }); // W messaging.twilio communication
  await sms.messages.list({ limit: 5 }); // R
  await bot.telegram.sendMessage(1, text); // W messaging.telegram communication
  await bot.telegram.getMe(); // R
}
