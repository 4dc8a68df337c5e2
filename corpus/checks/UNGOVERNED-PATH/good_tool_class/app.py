import shutil


class Janitor:
    """A plain class with a `_run` method: no framework hands it to a model."""

    def _run(self, path: str) -> str:
        shutil.rmtree(path)  # EXPECT-NOT: UNGOVERNED-PATH
        return "purged"


def nightly() -> None:
    Janitor()._run("/tmp/cache")
