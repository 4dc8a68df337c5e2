"""The work queue client."""


async def enqueue(queue, payload):
    print(queue, payload)
