"""A local memory helper whose method names collide with MemexAI's."""


class Notebook:
    def search(self, query: str) -> dict:
        return {"results": []}

    def write_file(self, path: str, content: str) -> None:
        pass


def for_user(user_id: str) -> Notebook:
    return Notebook()


def lookup(body: dict):
    book = for_user(body["userId"])
    book.write_file("shared/policy.md", "anything")
    return book.search("escalation")
