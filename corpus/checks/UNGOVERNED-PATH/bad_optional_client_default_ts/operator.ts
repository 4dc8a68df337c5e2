// A client taken as an optional parameter with a default: the completion is the model's, and
// its text runs as a command.
import { execSync } from "node:child_process";
import OpenAI from "openai";

export async function operate(task: string, given?: OpenAI) {
  const client = given ?? new OpenAI();
  const reply = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: task }],
  });
  execSync(reply.choices[0].message.content ?? ""); // EXPECT: UNGOVERNED-PATH
}

export async function review(task: string, client: OpenAI | undefined) {
  const reply = await client!.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: task }],
  });
  execSync(`git commit -m ${JSON.stringify(reply.choices[0].message.content)}`); // EXPECT: UNGOVERNED-PATH
}
