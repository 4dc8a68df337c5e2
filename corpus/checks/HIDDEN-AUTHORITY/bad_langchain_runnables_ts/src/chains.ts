import { ChatAnthropic } from "@langchain/anthropic";
import { triagePrompt } from "./prompts";

const model = new ChatAnthropic({ model: "claude-sonnet-4-5" });

export const triageChain = triagePrompt.pipe(model);
