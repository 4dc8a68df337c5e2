from memrail import AMIClient, AsyncAMIClient

REFUND_POINT = "billing.refund"
GREETING_POINT = "support.greeting"
CHANGING = "first"
CHANGING = "second"

client = AMIClient(project="support")


def make_client():
    return AMIClient(project="support")


def open_client(project) -> AsyncAMIClient:
    return build_somehow(project)


def build_somehow(project):
    return {"project": project}
