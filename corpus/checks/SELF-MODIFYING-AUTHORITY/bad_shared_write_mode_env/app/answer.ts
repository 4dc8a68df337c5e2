import { MemexAI } from "@memexai/sdk";
import { generateText, stepCountIs } from "ai";
import { createGoogleGenerativeAI } from "@ai-sdk/google";

const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function answer(session: { user: { id: string } }, userMessage: string) {
  const memory = memex.forUser({ userId: session.user.id, actor: "assistant" });
  const result = await generateText({
    model: createGoogleGenerativeAI()("gemini-2.5-flash"),
    system: await memory.getSystemPrompt("You are a support assistant with durable memory."),
    prompt: userMessage,
    tools: memory.createAgenticToolset(),
    stopWhen: stepCountIs(5),
  });
  return result.text;
}
