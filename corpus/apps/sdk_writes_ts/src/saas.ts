import { Octokit } from '@octokit/rest';
import { Client as Notion } from '@notionhq/client';
import { LinearClient } from '@linear/sdk';
import { Client as HubSpot } from '@hubspot/api-client';
import Shopify from 'shopify-api-node';

const octokit = new Octokit({ auth: 't' });
const notion = new Notion({ auth: 't' });
const linear = new LinearClient({ apiKey: 'k' });
const hubspot = new HubSpot({ accessToken: 't' });
const shopify = new Shopify({ shopName: 's', accessToken: 't' });

export async function tracker(title: string) {
  await octokit.rest.issues.create({ owner: 'o', repo: 'r', title }); // W saas.ts.github data_write
  await octokit.rest.pulls.merge({ owner: 'o', repo: 'r', pull_number: 1 }); // W saas.ts.github data_write
  await octokit.rest.issues.listForRepo({ owner: 'o', repo: 'r' }); // R
  await notion.pages.create({ parent: { database_id: 'd' }, properties: {} }); // W saas.notion data_write
  await notion.databases.query({ database_id: 'd' }); // R
  await linear.createIssue({ teamId: 't', title }); // W saas.ts.linear data_write
  await linear.issues(); // R
}

export async function crm(email: string) {
  await hubspot.crm.contacts.basicApi.create({ properties: { email } }); // W saas.hubspot data_write
  await hubspot.crm.contacts.basicApi.getPage(); // R
  await shopify.order.cancel(1); // W saas.shopify money
  await shopify.order.list(); // R
}
