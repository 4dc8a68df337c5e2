import { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ChatAnthropic } from "@langchain/anthropic";

const NAMESPACE = ["seen"];
const KEY = "links";
const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });

// The model picks a link; the store only remembers which links were used, to skip repeats.
// What is read back decides a branch and never reaches a prompt: no instruction of a later
// run comes from the model.
export async function pick(state: { links: string[] }, config: LangGraphRunnableConfig) {
  const { store } = config;
  const reply = await model.invoke(`Pick the best link:\n${state.links.join("\n")}`);
  const chosen = String(reply.content);
  const seen = await store?.get(NAMESPACE, KEY);
  const used: string[] = seen?.value?.links ?? [];
  if (used.includes(chosen)) {
    return { chosen: null };
  }
  await store?.put(NAMESPACE, KEY, { links: [...used, chosen] });
  return { chosen };
}
