"""Must not be invented: what the code does not say stays `unknown`.

- a client built with no literal project (`AMIClient()` reads `AMI_PROJECT` at run time, and
  `project=os.environ[...]` is not a literal): `memrail_project: unknown`;
- a decision point passed in by the caller is not a name the audit can read.
"""

import os

from memrail import AMIClient
from memrail.atoms import state

env_client = AMIClient()
configured = AMIClient(project=os.environ["BILLING_PROJECT"])


def reconcile(order):
    decision = env_client.decide(decision_point="billing.reconcile",
                                 context=[state("order.id", order.id)])
    return [item.action["directive"] for item in decision.selected]


def settle(order):
    decision = configured.decide(decision_point="billing.settle",
                                 context=[state("order.id", order.id)])
    return [item.action["directive"] for item in decision.selected]


def decide_at(point, order):
    decision = env_client.decide(decision_point=point, context=[state("order.id", order.id)])
    return [item.action["directive"] for item in decision.selected]
