import { streamText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';
import nodemailer from 'nodemailer';

const transporter = nodemailer.createTransport({ host: 'smtp.example.com', port: 587 });

export async function POST(req: Request) {
  const { messages } = await req.json();
  const result = streamText({
    model: openai('gpt-4o'),
    messages,
    tools: {
      sendEmail: tool({
        description: 'Send an email to a customer',
        parameters: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
        execute: async ({ to, subject, body }) => {
          // topo ignore UNGOVERNED-PATH (no colon, no brackets)  // EXPECT: SUPPRESSION-INVALID
          await transporter.sendMail({ from: 'support@example.com', to, subject, text: body });  // EXPECT: UNGOVERNED-PATH
          return { sent: true };
        },
      }),
    },
  });
  return result.toDataStreamResponse();
}
