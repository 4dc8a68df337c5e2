// A script whose model answer is a module-level constant, read by a helper.
import { rmSync } from "node:fs";
import OpenAI from "openai";

const openai = new OpenAI();

function tidy(folder: string) {
  if (response.choices[0].message.content === "delete") { // EXPECT: HIDDEN-AUTHORITY
    rmSync(folder, { recursive: true }); // EXPECT: UNGOVERNED-PATH
  }
}

const response = await openai.chat.completions.create({
  model: "gpt-4o",
  messages: [{ role: "user", content: "Delete the cache?" }],
});
tidy("cache");
