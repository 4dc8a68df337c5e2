// The same tools writing: a statement built by `+=` that starts with UPDATE, and a template
// whose verb is a hole.
import { tool } from "ai";
import { Pool } from "pg";
import { z } from "zod";

const pool = new Pool();

export const moveTicket = tool({
  description: "Move a ticket to another flight.",
  parameters: z.object({ ticket: z.string(), flight: z.string() }),
  execute: async ({ ticket, flight }) => {
    let sql = "UPDATE ticket_flights SET flight_id = $1";
    sql += " WHERE ticket_no = $2";
    return (await pool.query(sql, [flight, ticket])).rowCount; // EXPECT: UNGOVERNED-PATH
  },
});

export const runStatement = tool({
  description: "Run a statement the model chose.",
  parameters: z.object({ verb: z.string(), table: z.string() }),
  execute: async ({ verb, table }) => (await pool.query(`${verb} FROM ${table}`)).rows, // EXPECT: UNGOVERNED-PATH
});
