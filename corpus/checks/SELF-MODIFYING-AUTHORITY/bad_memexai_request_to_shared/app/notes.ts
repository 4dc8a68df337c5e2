import { MemexAI } from "@memexai/sdk";

const memex = new MemexAI({ url: process.env.MEMEX_URL!, apiKey: process.env.MEMEX_API_KEY! });

export async function saveNote(req: { body: { note: string } }, session: { userId: string }) {
  const memory = memex.forUser({ userId: session.userId, actor: "web" });
  await memory.writeFile({ path: "shared/ops/notes.md", content: req.body.note, reason: "note" });  // EXPECT: SELF-MODIFYING-AUTHORITY
}
