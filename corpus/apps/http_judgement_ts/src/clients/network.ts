import axios from 'axios';
import { withPaymentInterceptor } from 'x402-axios';

const TOKEN_URL = 'https://auth.network.example/oauth/v2/accessToken';
const API = 'https://api.network.example/v2';

export async function exchangeCode(code: string): Promise<string> {
  const response = await fetch(TOKEN_URL, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code }),
  });
  return (await response.json()).access_token;
}

export async function searchPosts(token: string, query: string): Promise<unknown> {
  const response = await axios.post(`${API}/posts/search`, { query }, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.data;
}

export async function draftCaption(notes: string): Promise<string> {
  const response = await fetch('/api/llm', {
    method: 'POST',
    body: JSON.stringify({ model: 'small', messages: [{ role: 'user', content: notes }] }),
  });
  return (await response.json()).text;
}

export async function rewriteDraft(text: string): Promise<string> {
  const response = await fetch('/api/rewrite', { method: 'POST', body: JSON.stringify({ text }) });
  return (await response.json()).text;
}

export async function schedule(text: string, at: string): Promise<Response> {
  return fetch('/api/schedule', { method: 'POST', body: JSON.stringify({ text, at }) });
}

async function makeRequest(token: string, url: string, options: RequestInit): Promise<Response> {
  return fetch(url, { ...options, headers: { Authorization: `Bearer ${token}` } });
}

export async function publishPost(token: string, text: string): Promise<Response> {
  return makeRequest(token, `${API}/posts`, { method: 'POST', body: JSON.stringify({ text }) });
}

export async function reshare(token: string, urn: string): Promise<Response> {
  return fetch(`${API}/shares`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: JSON.stringify({ resharedShare: urn }),
  });
}

export async function readPost(token: string, urn: string): Promise<Response> {
  return fetch(`${API}/posts/${urn}`, { headers: { Authorization: `Bearer ${token}` } });
}

const paidApi = withPaymentInterceptor(axios.create({ baseURL: 'https://insights.example' }), wallet);

export async function buyInsights(topic: string): Promise<unknown> {
  return (await paidApi.get(`/reports/${topic}`)).data;
}

declare const wallet: unknown;
