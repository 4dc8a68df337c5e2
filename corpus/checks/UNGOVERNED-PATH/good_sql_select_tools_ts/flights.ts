// Read-only flight tools: each query is known to be a SELECT (a template literal, a constant,
// a string extended by `+=`).
import { tool } from "ai";
import { Pool } from "pg";
import { z } from "zod";

const pool = new Pool();

export const searchFlights = tool({
  description: "Flights between two airports.",
  parameters: z.object({ departure: z.string(), arrival: z.string().optional() }),
  execute: async ({ departure, arrival }) => {
    let sql = "SELECT * FROM flights WHERE departure_airport = $1";
    const params = [departure];
    if (arrival) {
      sql += " AND arrival_airport = $2";
      params.push(arrival);
    }
    return (await pool.query(sql, params)).rows; // EXPECT-NOT: UNGOVERNED-PATH
  },
});

export const countRows = tool({
  description: "How many rows a table holds.",
  parameters: z.object({ table: z.string() }),
  execute: async ({ table }) => (await pool.query(`SELECT COUNT(*) FROM ${table}`)).rows, // EXPECT-NOT: UNGOVERNED-PATH
});
