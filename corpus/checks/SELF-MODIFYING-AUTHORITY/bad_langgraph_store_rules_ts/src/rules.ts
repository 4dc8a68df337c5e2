import { LangGraphRunnableConfig } from "@langchain/langgraph";

const NAMESPACE = ["style_rules"];
const KEY = "rules";

export async function loadRules(config: LangGraphRunnableConfig): Promise<string> {
  const { store } = config;
  const item = await store?.get(NAMESPACE, KEY);
  return item?.value?.text ?? "";
}

export async function saveRules(config: LangGraphRunnableConfig, text: string): Promise<void> {
  const { store } = config;
  if (!store) {
    throw new Error("no store");
  }
  await store.put(NAMESPACE, KEY, { text }); // EXPECT: SELF-MODIFYING-AUTHORITY
}
