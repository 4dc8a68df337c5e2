// Clean-up actions from the deployment's own list; the model only writes the summary.
import { rmSync } from "node:fs";
import OpenAI from "openai";

const openai = new OpenAI();
const ACTIONS = [{ kind: "delete", path: "/tmp/build-cache" }];

export async function cleanUp(task: string) {
  const reply = await openai.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: task }],
  });
  ACTIONS.forEach((action) => {
    if (action.kind === "delete") { // EXPECT-NOT: HIDDEN-AUTHORITY
      rmSync(action.path, { recursive: true }); // EXPECT-NOT: UNGOVERNED-PATH
    }
  });
  console.log(reply.choices[0].message.content);
}
