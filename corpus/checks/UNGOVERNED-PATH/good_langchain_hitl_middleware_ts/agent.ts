// LangChain JS: humanInTheLoopMiddleware pauses for a human before each call of the tools it
// names (found in vercel/ai's next-langchain example, reported as ungoverned before).
import { rmSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { z } from "zod";

const deleteFile = tool(
  async ({ path }) => {
    rmSync(path); // EXPECT-NOT: UNGOVERNED-PATH
    return "deleted";
  },
  { name: "delete_file", description: "Delete a file.", schema: z.object({ path: z.string() }) },
);

const search = tool(async ({ query }) => `results for ${query}`, {
  name: "search",
  description: "Search.",
  schema: z.object({ query: z.string() }),
});

export const agent = createAgent({
  model: "openai:gpt-4o",
  tools: [deleteFile, search],
  middleware: [
    humanInTheLoopMiddleware({
      interruptOn: { delete_file: { allowedDecisions: ["approve", "reject"] }, search: false },
    }),
  ],
});
