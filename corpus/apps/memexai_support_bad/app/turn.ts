import OpenAI from "openai";
import { MemexAI } from "@memexai/sdk";
import { createOpenAITools } from "@memexai/sdk/adapters/openai";

const openai = new OpenAI();
const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function handleTurn(req: { body: { userId: string; message: string } }) {
  const memory = memex.forUser({ userId: req.body.userId, actor: "billing-assistant" });
  const { definitions, execute } = createOpenAITools(memory);
  const response = await openai.chat.completions.create({
    model: "gpt-4.1-mini", tools: definitions,
    messages: [{ role: "system", content: "You are a billing assistant." }, { role: "user", content: req.body.message }],
  });
  return { response, execute };
}
