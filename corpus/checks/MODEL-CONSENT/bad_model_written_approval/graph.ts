// A LangGraph.js review node lets the model write the approval into graph state; the send node reads it.
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { Resend } from 'resend';
import { z } from 'zod';

const resend = new Resend(process.env.RESEND_API_KEY);
const llm = new ChatOpenAI({ model: 'gpt-4o' });
const Verdict = z.object({ approved: z.boolean(), reason: z.string() });

const DraftState = Annotation.Root({
  to: Annotation<string>,
  draft: Annotation<string>,
  approved: Annotation<boolean>,
});

async function review(state: typeof DraftState.State) {
  const verdict = await llm.withStructuredOutput(Verdict).invoke(`Approve this email? ${state.draft}`);
  return { approved: verdict.approved };
}

async function send(state: typeof DraftState.State) {
  if (state.approved) { // EXPECT: MODEL-CONSENT
    await resend.emails.send({ from: 'support@example.com', to: state.to, subject: 'Re: your ticket', text: state.draft });
  }
  return {};
}

export const graph = new StateGraph(DraftState)
  .addNode('review', review)
  .addNode('send', send)
  .addEdge(START, 'review')
  .addEdge('review', 'send')
  .addEdge('send', END)
  .compile();
