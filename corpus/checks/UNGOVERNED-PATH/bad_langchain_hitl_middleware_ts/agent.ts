// The middleware asks about the search, and auto-approves the deletion (false).
import { rmSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { z } from "zod";

const deleteFile = tool(
  async ({ path }) => {
    rmSync(path); // EXPECT: UNGOVERNED-PATH
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
      interruptOn: { delete_file: false, search: true },
    }),
  ],
});
