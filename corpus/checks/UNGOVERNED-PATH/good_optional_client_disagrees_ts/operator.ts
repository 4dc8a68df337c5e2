// The same shapes where the alternatives name different classes: which one runs is not known.
import { execSync } from "node:child_process";
import OpenAI from "openai";

class Replay {
  chat = { completions: { create: async (_: unknown) => ({ choices: [{ message: { content: "ls" } }] }) } };
}

export async function operate(task: string, given?: OpenAI) {
  const client = given ?? new Replay();
  const reply = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: task }],
  });
  execSync(reply.choices[0].message.content ?? ""); // EXPECT-NOT: UNGOVERNED-PATH
}

export async function review(task: string, client: OpenAI | Replay) {
  const reply = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: task }],
  });
  execSync(`git commit -m ${JSON.stringify(reply.choices[0].message.content)}`); // EXPECT-NOT: UNGOVERNED-PATH
}
