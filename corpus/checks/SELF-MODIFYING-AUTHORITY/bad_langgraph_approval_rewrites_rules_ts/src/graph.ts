// Draft → human approval → publish, plus a node where the model rewrites the stored style
// rules that every later draft follows, with nobody reviewing the new rules.
import {
  Annotation, Command, END, LangGraphRunnableConfig, START, StateGraph, interrupt,
} from "@langchain/langgraph";
import { ChatAnthropic } from "@langchain/anthropic";
import { WebClient } from "@slack/web-api";

const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });
const slack = new WebClient(process.env.SLACK_TOKEN);
const NAMESPACE = ["style_rules"];

const PostState = Annotation.Root({
  topic: Annotation<string>,
  channel: Annotation<string>,
  post: Annotation<string>,
  feedback: Annotation<string>,
});

async function generatePost(state: typeof PostState.State, config: LangGraphRunnableConfig) {
  const rules = await config.store?.get(NAMESPACE, "rules");
  const response = await model.invoke([
    { role: "system", content: `Follow these rules: ${rules?.value?.text ?? ""}` },
    { role: "user", content: `Write a short post about ${state.topic}` },
  ]);
  return { post: response.content as string };
}

async function humanNode(state: typeof PostState.State) {
  const decision = interrupt({ question: "Publish this post?", post: state.post });
  if (decision.action === "accept") {
    return new Command({ goto: "publishPost" });
  }
  return new Command({ goto: "learn", update: { feedback: decision.feedback } });
}

async function learn(state: typeof PostState.State, config: LangGraphRunnableConfig) {
  const response = await model.invoke([
    { role: "system", content: "Rewrite the style rules to follow this feedback." },
    { role: "user", content: state.feedback },
  ]);
  await config.store?.put(NAMESPACE, "rules", { text: response.content }); // EXPECT: SELF-MODIFYING-AUTHORITY
  return {};
}

async function publishPost(state: typeof PostState.State) {
  await slack.chat.postMessage({ channel: state.channel, text: state.post }); // EXPECT-NOT: UNGOVERNED-PATH
  return {};
}

export const graph = new StateGraph(PostState)
  .addNode("generatePost", generatePost)
  .addNode("humanNode", humanNode, { ends: ["publishPost", "learn"] })
  .addNode("learn", learn)
  .addNode("publishPost", publishPost)
  .addEdge(START, "generatePost")
  .addEdge("generatePost", "humanNode")
  .addEdge("learn", "generatePost")
  .addEdge("publishPost", END)
  .compile();
