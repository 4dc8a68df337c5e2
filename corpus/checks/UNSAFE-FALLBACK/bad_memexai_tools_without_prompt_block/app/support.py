"""Seed 003, Prompt Block: "Passing tools without the prompt block can create a misleading demo";
"Treat `tools` plus `system` as the pair that makes memory useful."""
import os

from langchain.agents import AgentExecutor, create_tool_calling_agent
from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI
from memexai import MemexAI
from memexai.adapters.langchain import get_langchain_tools

memex = MemexAI(url=os.environ["MEMEX_URL"], api_key=os.environ["MEMEX_API_KEY"])


async def chat(session, message: str):
    user = memex.for_user(session.user_id, actor="support-assistant")
    tools = get_langchain_tools(user)  # EXPECT: DESTRUCTIVE-MEMORY-TOOL
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You are a support agent."), ("human", "{input}"), ("placeholder", "{agent_scratchpad}")]
    )
    agent = create_tool_calling_agent(ChatOpenAI(model="gpt-4.1-mini"), tools, prompt)
    result = await AgentExecutor(agent=agent, tools=tools).ainvoke({"input": message})  # EXPECT: UNSAFE-FALLBACK
    return result["output"]

