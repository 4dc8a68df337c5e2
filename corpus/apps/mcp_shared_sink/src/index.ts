import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { promises as fs } from "fs";
import { z } from "zod";

const NOTES = "notes.json";

class NoteStore {
  private async loadNotes(): Promise<string[]> {
    return JSON.parse(await fs.readFile(NOTES, "utf-8"));
  }

  private async saveNotes(notes: string[]): Promise<void> {
    await fs.writeFile(NOTES, JSON.stringify(notes));
  }

  async add(title: string): Promise<void> {
    const notes = await this.loadNotes();
    notes.push(title);
    await this.saveNotes(notes);
  }

  async remove(titles: string[]): Promise<void> {
    const notes = await this.loadNotes();
    await this.saveNotes(notes.filter(n => !titles.includes(n)));
  }

  async all(): Promise<string[]> {
    return this.loadNotes();
  }
}

const store = new NoteStore();
const server = new McpServer({ name: "notes", version: "1.0.0" });

server.registerTool(
  "add_note",
  { description: "Add a note", inputSchema: { title: z.string() } },
  async ({ title }) => {
    await store.add(title);
    return { content: [{ type: "text" as const, text: "added" }] };
  }
);

server.registerTool(
  "delete_notes",
  { description: "Delete notes by title", inputSchema: { titles: z.array(z.string()) } },
  async ({ titles }) => {
    await store.remove(titles);
    return { content: [{ type: "text" as const, text: "deleted" }] };
  }
);

server.registerTool(
  "list_notes",
  { description: "List the notes", inputSchema: {} },
  async () => {
    const notes = await store.all();
    return { content: [{ type: "text" as const, text: notes.join("\n") }] };
  }
);
