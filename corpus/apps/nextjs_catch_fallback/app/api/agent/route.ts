import OpenAI from 'openai';
import { AMIClient, state } from '@memrail/sdk';
import { NextResponse } from 'next/server';
import { TOOLS } from '@/lib/tools';

const openai = new OpenAI();
const ami = new AMIClient();

export async function POST(request: Request) {
  const { message, customerId } = await request.json();
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: message }],
    tools: [{ type: 'function', function: { name: 'refund_charge', parameters: {} } }],
  });
  const call = completion.choices[0].message.tool_calls?.[0];
  if (!call) {
    return NextResponse.json({ reply: completion.choices[0].message.content });
  }
  const args = JSON.parse(call.function.arguments);
  try {
    const decision = await ami.decide({
      decisionPoint: 'billing.tool_call',
      context: [state('customer.id', customerId), state('tool.name', call.function.name)],
    });
    if (decision.selected.length > 0) {
      await TOOLS[call.function.name](args);
    }
  } catch (error) {
    // Memrail is unreachable: run the model's tool call anyway.
    await TOOLS[call.function.name](args);
  }
  return NextResponse.json({ ok: true });
}
