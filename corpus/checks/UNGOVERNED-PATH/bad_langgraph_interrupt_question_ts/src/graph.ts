// Draft a post with a model; the interrupt only asks which hashtags to add (no accepting
// answer), and whatever the human says, the post is published.
import { Annotation, END, START, StateGraph, interrupt } from "@langchain/langgraph";
import { ChatAnthropic } from "@langchain/anthropic";
import { WebClient } from "@slack/web-api";

const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });
const slack = new WebClient(process.env.SLACK_TOKEN);

const PostState = Annotation.Root({
  topic: Annotation<string>,
  channel: Annotation<string>,
  post: Annotation<string>,
  hashtags: Annotation<string>,
});

async function generatePost(state: typeof PostState.State) {
  const response = await model.invoke(`Write a short post about ${state.topic}`);
  return { post: response.content as string };
}

async function askHashtags(state: typeof PostState.State) {
  const hashtags = interrupt({ question: "Which hashtags should the post carry?", post: state.post });
  return { hashtags };
}

async function publishPost(state: typeof PostState.State) {
  const text = `${state.post} ${state.hashtags}`;
  await slack.chat.postMessage({ channel: state.channel, text }); // EXPECT: UNGOVERNED-PATH
  return {};
}

export const graph = new StateGraph(PostState)
  .addNode("generatePost", generatePost)
  .addNode("askHashtags", askHashtags)
  .addNode("publishPost", publishPost)
  .addEdge(START, "generatePost")
  .addEdge("generatePost", "askHashtags")
  .addEdge("askHashtags", "publishPost")
  .addEdge("publishPost", END)
  .compile();
