import { tool } from "ai";
import { z } from "zod";
import { execSync } from "child_process";

export function shellTool() {
  return tool({
    description: "Run a shell command",
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => execSync(command).toString(),
  });
}
