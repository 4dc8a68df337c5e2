import OpenAI from "openai";
import { drizzle } from "drizzle-orm/node-postgres";
import { eq } from "drizzle-orm";
import { orders, users } from "./schema";

const db = drizzle(process.env.DATABASE_URL!);
const openai = new OpenAI();

export async function record(task: string) {
  const reply = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: task }] });
  const amount = Number(reply.choices[0].message.content);
  await db.insert(orders).values({ amount, note: "model" });
  await db.update(users).set({ role: reply.choices[0].message.content }).where(eq(users.id, 1));
}

export async function constant() {
  await db.insert(orders).values({ amount: 10, note: "fixed" });
  await db.update(users).set({ role: "reader" }).where(eq(users.id, 1));
}
