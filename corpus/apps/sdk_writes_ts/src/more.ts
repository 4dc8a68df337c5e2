import Mailgun from 'mailgun.js';
import { Client as Discord, WebhookClient } from 'discord.js';
import TelegramBot from 'node-telegram-bot-api';
import { Gitlab } from '@gitbeaker/rest';
import jsforce from 'jsforce';
import mongoose from 'mongoose';
import { DataSource } from 'typeorm';
import { Pool } from 'pg';
import { execa } from 'execa';
import fse from 'fs-extra';
import { PlaidApi } from 'plaid';
import { IAMClient, CreateAccessKeyCommand, ListUsersCommand } from '@aws-sdk/client-iam';

export async function messaging(domain: string, text: string) {
  const mailgunFactory = new Mailgun(FormData);
  const mailgun = mailgunFactory.client({ username: 'api', key: 'k' });
  await mailgun.messages.create(domain, { to: 'a@example.com', text }); // W messaging.ts.mailgun communication
  await mailgun.domains.list(); // R
  const discord = new Discord({ intents: [] });
  await discord.channels.fetch('c1'); // R
  const hook = new WebhookClient({ url: 'https://discord.example/hook' });
  await hook.send(text); // W messaging.discord communication
  await hook.fetchMessage('m1'); // R
  const bot = new TelegramBot('token');
  await bot.sendMessage(1, text); // W messaging.telegram communication
  await bot.getChat(1); // R
}

export async function trackers(title: string) {
  const gitlab = new Gitlab({ token: 't' });
  await gitlab.Issues.create(1, title); // W saas.ts.gitlab data_write
  await gitlab.Issues.all(); // R
  const sf = new jsforce.Connection({});
  await sf.sobject('Contact').create({ LastName: title }); // W saas.salesforce data_write
  await sf.sobject('Contact').retrieve('003'); // R
}

export async function stores(sql: string, doc: object) {
  const Order = mongoose.model('Order', new mongoose.Schema({}));
  await Order.create(doc); // W datastores.ts.mongoose data_write
  await Order.findByIdAndDelete('1'); // W datastores.ts.mongoose data_write
  await Order.find({}); // R
  const source = new DataSource({ type: 'postgres' });
  await source.getRepository('Order').save(doc); // W datastores.ts.typeorm data_write
  await source.getRepository('Order').find(); // R
  await source.destroy(); // R
  const pool = new Pool();
  await pool.query(sql); // W datastores.ts.sql_query data_write
}

export async function local(command: string, path: string) {
  await execa(command); // W local.ts.execa code_execution
  await fse.outputFile(path, command); // W local.ts.fs_write data_write
  await fse.pathExists(path); // R
}

export async function moneyAndAccess(amount: string) {
  const plaid = new PlaidApi();
  await plaid.transferCreate({ amount }); // W payments.ts.plaid money
  await plaid.transferGet({ transfer_id: 't' }); // R
  const iam = new IAMClient({});
  await iam.send(new CreateAccessKeyCommand({ UserName: 'agent' })); // W cloud.ts.aws_iam access
  await iam.send(new ListUsersCommand({})); // R
}
