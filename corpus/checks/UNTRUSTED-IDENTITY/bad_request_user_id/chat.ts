import { MemexAI } from "@memexai/sdk";

const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function handleTurn(req: { body: { userId: string; message: string } }) {
  const memory = memex.forUser({ userId: req.body.userId, actor: "billing-assistant" }); // EXPECT: UNTRUSTED-IDENTITY
  return memory.getSystemPrompt("You are a billing assistant.");
}
