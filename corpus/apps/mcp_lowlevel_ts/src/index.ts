import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { promises as fs } from "fs";

enum ToolName {
  WRITE = "write_note",
  READ = "read_note",
}

const server = new Server({ name: "notes", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: ToolName.WRITE, inputSchema: {} }, { name: ToolName.READ, inputSchema: {} }],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case ToolName.WRITE: {
      await fs.writeFile(String(args?.path), String(args?.text));
      return { content: [{ type: "text", text: "written" }] };
    }
    case "delete_note":
      await fs.rm(String(args?.path));
      return { content: [{ type: "text", text: "deleted" }] };
    default:
      break;
  }
  if (name === ToolName.READ) {
    const text = await fs.readFile(String(args?.path), "utf-8");
    return { content: [{ type: "text", text }] };
  }
  throw new Error(`unknown tool ${name}`);
});
