// Twin of the bad turn: the model gets the prompt block and memory tools, but no refund tool;
// refunds run from the operator's reviewed queue.
import { generateText } from "ai";
import { openai } from "@ai-sdk/openai";
import { MemexAI } from "@memexai/sdk";

const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function handleTurn(session: { userId: string }, message: string) {
  const memory = memex.forUser({ userId: session.userId, actor: "billing-assistant" });
  const system = await memory.getSystemPrompt("You are a billing assistant.");
  return generateText({
    model: openai("gpt-4.1-mini"),
    system,
    prompt: message,
    tools: memory.createAgenticToolset(),
  });
}
