import { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ChatAnthropic } from "@langchain/anthropic";
import { loadRules, saveRules } from "./rules";

const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });

export async function draft(state: { topic: string }, config: LangGraphRunnableConfig) {
  const rules = await loadRules(config);
  const reply = await model.invoke([
    { role: "system", content: `Write a post. Follow these rules:\n${rules}` },
    { role: "user", content: state.topic },
  ]);
  return { draft: reply.content };
}

export async function learn(state: { feedback: string }, config: LangGraphRunnableConfig) {
  const reply = await model.invoke([
    { role: "system", content: "Rewrite the style rules so they follow the feedback." },
    { role: "user", content: state.feedback },
  ]);
  await saveRules(config, String(reply.content));
  return {};
}
