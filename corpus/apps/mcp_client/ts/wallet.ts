import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import ky from "ky";
import got from "got";

const MCP_URL = "https://wallet.example.com/mcp";

export async function sendMoney(to: string, cents: number) {
  const client = new Client({ name: "wallet-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL)));
  await client.listTools();
  return client.callTool({ name: "transfer_funds", arguments: { to, cents } });
}

export async function balance(account: string) {
  const client = new Client({ name: "wallet-agent", version: "1.0.0" });
  await client.connect(new SSEClientTransport(new URL(MCP_URL)));
  return client.callTool({ name: "get_balance", arguments: { account } });
}

export async function forward(client: Client, name: string, args: Record<string, unknown>) {
  return client.callTool({ name, arguments: args });
}

export async function revokeRaw(user: string) {
  const body = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "revoke_access", arguments: { user } },
  };
  return fetch(MCP_URL, { method: "POST", body: JSON.stringify(body) });
}

export async function listRaw() {
  return fetch(MCP_URL, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }),
  });
}

export async function saveNote(note: string) {
  return ky("https://notes.example.com/notes", { method: "post", json: { note } });
}

export async function readNote(id: string) {
  return ky(`https://notes.example.com/notes/${id}`);
}

export async function dropNote(id: string) {
  return got(`https://notes.example.com/notes/${id}`, { method: "DELETE" });
}

export async function headNote(id: string) {
  return got(`https://notes.example.com/notes/${id}`, { method: "GET" });
}

export async function archiveNote(id: string) {
  return ky.post(`https://notes.example.com/notes/${id}/archive`);
}

export async function payRawKy(to: string) {
  return ky.post(MCP_URL, {
    json: { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_quote", arguments: { to } } },
  });
}
