// The model plans clean-up actions; each element reaches the callback's parameter.
import { rmSync } from "node:fs";
import OpenAI from "openai";

const openai = new OpenAI();

export async function cleanUp(task: string) {
  const reply = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: task }],
  });
  const actions: { kind: string; path: string }[] = JSON.parse(reply.choices[0].message.content ?? "[]");
  actions.forEach((action) => {
    if (action.kind === "delete") { // EXPECT: HIDDEN-AUTHORITY
      rmSync(action.path, { recursive: true }); // EXPECT: UNGOVERNED-PATH
    }
  });
}
