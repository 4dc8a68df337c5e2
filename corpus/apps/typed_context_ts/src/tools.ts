import { RunContext, tool } from '@openai/agents';
import { z } from 'zod';
import { AppDeps } from './deps';

export const saveNote = tool({
  name: 'save_note',
  description: 'Save a note for the customer',
  parameters: z.object({ text: z.string() }),
  execute: async (input, runContext?: RunContext<AppDeps>) => {
    await runContext?.context.db.query('INSERT INTO notes(text) VALUES ($1)', [input.text]);
    return 'saved';
  },
});

export const looseNote = tool({
  name: 'loose_note',
  description: 'Save a note somewhere',
  parameters: z.object({ text: z.string() }),
  execute: async (input, runContext?: RunContext<AppDeps>) => {
    await runContext?.context.loose.query('INSERT INTO notes(text) VALUES ($1)', [input.text]);
    await runContext?.context.maybe.query('INSERT INTO notes(text) VALUES ($1)', [input.text]);
    return 'saved';
  },
});

export async function archive(deps: AppDeps, text: string): Promise<void> {
  await deps.db.query('INSERT INTO archive(text) VALUES ($1)', [text]);
}

export async function countNotes(deps: AppDeps): Promise<number> {
  const found = await deps.db.query('SELECT count(*) FROM notes');
  return found.rowCount ?? 0;
}

export async function eitherNote(deps: AppDeps, text: string): Promise<void> {
  await deps.either.query('INSERT INTO notes(text) VALUES ($1)', [text]);
}
