// A server route handler: the secret stays on the server; the browser calls this route.
import { MemexAI } from "@memexai/sdk";

const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function PUT(request: Request, session: { isOperator: boolean }) {
  if (!session.isOperator) return new Response("forbidden", { status: 403 });
  const { path, content } = await request.json();
  return fetch(`${process.env.NEXT_PUBLIC_MEMEX_URL}/v1/admin/files/${path}`, {
    method: "PUT",
    headers: { "x-memex-admin-secret": process.env.MEMEX_ADMIN_SECRET! },
    body: JSON.stringify({ content }),
  });
}
