import { ChatPromptTemplate } from "@langchain/core/prompts";
import { StringOutputParser } from "@langchain/core/output_parsers";

export const ticketPrompt = ChatPromptTemplate.fromTemplate("Ticket: {ticket}");

// A prompt rendered to text: no model runs in this pipe.
export const renderTicket = ticketPrompt.pipe(new StringOutputParser());
