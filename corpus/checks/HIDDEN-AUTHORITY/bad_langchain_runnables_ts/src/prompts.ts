import { ChatPromptTemplate } from "@langchain/core/prompts";

export const triagePrompt = ChatPromptTemplate.fromTemplate("Should we refund this ticket? {ticket}");
