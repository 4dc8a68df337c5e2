import { streamText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';
import nodemailer from 'nodemailer';
import { AMIClient, state } from '@memrail/sdk';

const transporter = nodemailer.createTransport({ host: 'smtp.example.com', port: 587 });
const ami = new AMIClient();

export async function POST(req: Request) {
  const { messages } = await req.json();
  const result = streamText({
    model: openai('gpt-4o'),
    system: 'You are a support agent.',
    messages,
    tools: {
      sendEmail: tool({
        description: 'Send an email to a customer',
        parameters: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
        execute: async ({ to, subject, body }) => {
          const decision = await ami.decide({
            decisionPoint: 'support.send_email',
            context: [state('email.recipient_domain', to.split('@')[1])],
            options: { human_consent: true },
          });
          if (decision.selected.length === 0) {
            return { sent: false, reason: 'not approved' };
          }
          await transporter.sendMail({ from: 'support@example.com', to, subject, text: body });
          return { sent: true };
        },
      }),
    },
  });
  return result.toDataStreamResponse();
}
