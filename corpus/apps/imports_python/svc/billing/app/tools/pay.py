import stripe

from ..util import cents


def refund(charge, amount):
    stripe.Refund.create(charge=charge, amount=cents(amount))
