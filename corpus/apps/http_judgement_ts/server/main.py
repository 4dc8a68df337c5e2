import fastapi
from openai import OpenAI

app = fastapi.FastAPI()
client = OpenAI()


@app.post("/chat/")
async def post_chat(prompt: str = fastapi.Form(...)) -> dict:
    reply = client.chat.completions.create(model="gpt-4o-mini",
                                           messages=[{"role": "user", "content": prompt}])
    return {"text": reply.choices[0].message.content}
