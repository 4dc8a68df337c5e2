// Draft a post with a model; the compiled graph pauses before the publishing node
// (`interruptBefore`) until a human resumes it.
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { ChatAnthropic } from "@langchain/anthropic";
import { WebClient } from "@slack/web-api";

const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });
const slack = new WebClient(process.env.SLACK_TOKEN);

const PostState = Annotation.Root({
  topic: Annotation<string>,
  channel: Annotation<string>,
  post: Annotation<string>,
});

async function generatePost(state: typeof PostState.State) {
  const response = await model.invoke(`Write a short post about ${state.topic}`);
  return { post: response.content as string };
}

async function publishPost(state: typeof PostState.State) {
  await slack.chat.postMessage({ channel: state.channel, text: state.post }); // EXPECT-NOT: UNGOVERNED-PATH
  return {};
}

export const graph = new StateGraph(PostState)
  .addNode("generatePost", generatePost)
  .addNode("publishPost", publishPost)
  .addEdge(START, "generatePost")
  .addEdge("generatePost", "publishPost")
  .addEdge("publishPost", END)
  .compile({ interruptBefore: ["publishPost"] });
