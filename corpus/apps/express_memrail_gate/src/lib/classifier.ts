import OpenAI from 'openai';

const openai = new OpenAI();

export async function classifyIntent(text: string): Promise<string> {
  const resp = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: `Classify: ${text}` }],
  });
  return resp.choices[0].message.content ?? 'unknown';
}
