// A LangGraph.js review node asks a person (`interrupt`) and stores their answer; the send node reads it.
import { Annotation, END, START, StateGraph, interrupt } from '@langchain/langgraph';
import { Resend } from 'resend';

const resend = new Resend(process.env.RESEND_API_KEY);

const DraftState = Annotation.Root({
  to: Annotation<string>,
  draft: Annotation<string>,
  approved: Annotation<boolean>,
});

async function review(state: typeof DraftState.State) {
  const answer = interrupt({ question: 'Send this email?', draft: state.draft });
  return { approved: answer === 'yes' };
}

async function send(state: typeof DraftState.State) {
  if (state.approved) { // EXPECT-NOT: MODEL-CONSENT
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
