"""Twin of bad_memexai_tools_without_prompt_block: the system prompt is the prompt block."""
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
    system = await user.get_system_prompt("You are a support agent.")
    prompt = ChatPromptTemplate.from_messages(
        [("system", system), ("human", "{input}"), ("placeholder", "{agent_scratchpad}")]
    )
    agent = create_tool_calling_agent(ChatOpenAI(model="gpt-4.1-mini"), tools, prompt)
    result = await AgentExecutor(agent=agent, tools=tools).ainvoke({"input": message})
    return result["output"]
