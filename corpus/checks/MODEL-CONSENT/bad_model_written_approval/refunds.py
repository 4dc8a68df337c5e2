"""The support agent's tool marks a refund approved; the payout job trusts that flag."""
import stripe
from agents import Agent, function_tool
from sqlalchemy import Boolean, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from payments.db import engine


class Base(DeclarativeBase):
    pass


class RefundRequest(Base):
    __tablename__ = "refund_requests"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    charge_id: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    approved: Mapped[bool] = mapped_column(Boolean, default=False)


@function_tool
def approve_refund(request_id: str) -> str:
    """Mark a customer's refund request as approved."""
    with Session(engine) as session:
        request = session.get(RefundRequest, request_id)
        request.approved = True
        session.commit()  # EXPECT: UNGOVERNED-PATH
    return "approved"


support_agent = Agent(name="support", tools=[approve_refund])


def pay_approved_refunds() -> None:
    """Nightly: pay every approved request."""
    with Session(engine) as session:
        for request in session.scalars(select(RefundRequest)):
            if request.approved:  # EXPECT: MODEL-CONSENT
                stripe.Refund.create(charge=request.charge_id, amount=request.amount_cents)
