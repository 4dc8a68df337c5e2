import { MemexAI } from "@memexai/sdk";

const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function handleTurn(session: { user: { id: string } }, message: string) {
  const memory = memex.forUser({ userId: session.user.id, actor: "billing-assistant" }); // EXPECT-NOT: UNTRUSTED-IDENTITY
  return memory.getSystemPrompt("You are a billing assistant.");
}
