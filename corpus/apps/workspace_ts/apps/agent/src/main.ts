import OpenAI from "openai";
import { runCommand, safeEcho } from "@acme/tools";

const openai = new OpenAI();

export async function act(task: string) {
  const response = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: task }] });
  const command = response.choices[0].message.content ?? "";
  runCommand(command);
  safeEcho();
}
