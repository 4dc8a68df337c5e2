import OpenAI from "openai";
import { generateText } from "ai";
import { openai as provider } from "@ai-sdk/openai";
import { MemexAI } from "@memexai/sdk";
import { createOpenAITools } from "@memexai/sdk/adapters/openai";

const openai = new OpenAI();
const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function handleTurn(session: { userId: string }, message: string) {
  const memory = memex.forUser({ userId: session.userId, actor: "billing-assistant" });
  const { definitions } = createOpenAITools(memory);  // EXPECT: DESTRUCTIVE-MEMORY-TOOL
  const system = await memory.getSystemPrompt("You are a billing assistant.");
  return openai.chat.completions.create({
    model: "gpt-4.1-mini", tools: definitions,
    messages: [{ role: "system", content: system }, { role: "user", content: message }],
  });
}

export async function quickTurn(session: { userId: string }, message: string) {
  const memory = memex.forUser({ userId: session.userId, actor: "billing-assistant" });
  const block = await memory.getPromptBlock();
  return generateText({
    model: provider("gpt-4.1-mini"),
    system: `You are a billing assistant.\n\n${block}`,
    prompt: message,
    tools: memory.createAgenticToolset(),
  });
}
