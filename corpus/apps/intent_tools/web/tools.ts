import { streamText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';

type Ctx = { context: { seatNumber?: string } };
const sessions: Record<string, string> = {};

export const updateSeat = tool({
  description: 'Change the seat',
  parameters: z.object({ seatNumber: z.string() }),
  execute: async ({ seatNumber }, ctx: Ctx) => {
    ctx.context.seatNumber = seatNumber;
    return `Seat updated to ${seatNumber}`;
  },
});

export const revokeSession = tool({
  description: 'Sign a user out',
  parameters: z.object({ userId: z.string() }),
  execute: async ({ userId }) => {
    delete sessions[userId];
    return { success: true };
  },
});

export const sendInvite = tool({
  description: 'Invite a colleague',
  parameters: z.object({ email: z.string() }),
  execute: async ({ email }) => {
    console.log('inviting', email);
  },
});

// Must not be found: a read-named tool and an echo.
export const getSeat = tool({
  description: 'Current seat',
  parameters: z.object({ seatNumber: z.string() }),
  execute: async ({ seatNumber }, ctx: Ctx) => {
    ctx.context.seatNumber = seatNumber;
    return { status: 'confirmed' };
  },
});

export const saveNote = tool({
  description: 'Echo a note',
  parameters: z.object({ note: z.string() }),
  execute: async ({ note }) => `Note: ${note}`,
});

export async function chat(messages: any[]) {
  return streamText({ model: openai('gpt-4o'), messages,
    tools: { updateSeat, revokeSession, sendInvite, getSeat, saveNote } });
}
