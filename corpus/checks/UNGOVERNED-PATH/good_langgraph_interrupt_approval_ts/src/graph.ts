// Draft a post with a model; a human accepts or edits it (Agent Inbox interrupt) before a
// router sends the graph to the publishing node.
import { Annotation, END, START, StateGraph, interrupt } from "@langchain/langgraph";
import { ChatAnthropic } from "@langchain/anthropic";
import { WebClient } from "@slack/web-api";

const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });
const slack = new WebClient(process.env.SLACK_TOKEN);

const PostState = Annotation.Root({
  topic: Annotation<string>,
  channel: Annotation<string>,
  post: Annotation<string>,
  next: Annotation<string>,
});

async function generatePost(state: typeof PostState.State) {
  const response = await model.invoke(`Write a short post about ${state.topic}`);
  return { post: response.content as string };
}

async function humanNode(state: typeof PostState.State) {
  if (!state.post) {
    throw new Error("No post to review");
  }
  const request = {
    action_request: { action: "Publish post", args: { post: state.post } },
    config: { allow_accept: true, allow_edit: true, allow_ignore: true, allow_respond: false },
    description: "Accept or edit the post to publish it.",
  };
  const response = interrupt([request])[0];
  if (response.type === "ignore") {
    return { next: END };
  }
  if (response.type === "edit") {
    return { next: "publishPost", post: response.args.args.post };
  }
  return { next: "publishPost" };
}

function routeAfterHuman(state: typeof PostState.State) {
  return state.next;
}

async function publishPost(state: typeof PostState.State) {
  await slack.chat.postMessage({ channel: state.channel, text: state.post }); // EXPECT-NOT: UNGOVERNED-PATH
  return {};
}

export const graph = new StateGraph(PostState)
  .addNode("generatePost", generatePost)
  .addNode("humanNode", humanNode)
  .addNode("publishPost", publishPost)
  .addEdge(START, "generatePost")
  .addEdge("generatePost", "humanNode")
  .addConditionalEdges("humanNode", routeAfterHuman, ["publishPost", END])
  .addEdge("publishPost", END)
  .compile();
