import { Client } from "@mubit-ai/sdk";

const client = new Client({ api_key: process.env.MUBIT_API_KEY });

export async function finish(sessionId: string, ticketId: string) {
  await client.recordOutcome({ session_id: sessionId, reference_id: ticketId, // EXPECT: UNVERIFIED-OUTCOME
                               outcome: "success", verified_in_production: true });
}
