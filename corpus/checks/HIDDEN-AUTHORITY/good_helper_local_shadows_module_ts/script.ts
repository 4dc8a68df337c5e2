// The same shape, but the helper declares its own `response` (and another takes one as a
// parameter): the module's model answer never reaches them.
import { rmSync, writeFileSync } from "node:fs";
import OpenAI from "openai";

const openai = new OpenAI();

async function download(url: string) {
  const response = await fetch(url);
  if (response.status === 200) { // EXPECT-NOT: HIDDEN-AUTHORITY
    writeFileSync("report.pdf", Buffer.from(await response.arrayBuffer())); // EXPECT-NOT: UNGOVERNED-PATH
  }
}

function tidy(folder: string, response: Response) {
  if (response.ok) { // EXPECT-NOT: HIDDEN-AUTHORITY
    rmSync(folder, { recursive: true }); // EXPECT-NOT: UNGOVERNED-PATH
  }
}

await download("https://example.com/q3.pdf");
const response = await openai.chat.completions.create({
  model: "gpt-4o",
  messages: [{ role: "user", content: "Summarise Q3." }],
});
console.log(response.choices[0].message.content);
