"""The support agent files refund requests; only an authenticated admin approves them, and the
payout job pays what an admin approved."""
import stripe
from agents import Agent, function_tool
from fastapi import Depends, FastAPI, HTTPException
from sqlalchemy import Boolean, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from payments.auth import Admin, require_admin
from payments.db import engine

app = FastAPI()


class Base(DeclarativeBase):
    pass


class RefundRequest(Base):
    __tablename__ = "refund_requests"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    charge_id: Mapped[str] = mapped_column(String)
    amount_cents: Mapped[int] = mapped_column(Integer)
    approved: Mapped[bool] = mapped_column(Boolean, default=False)
    approved_by: Mapped[str] = mapped_column(String, nullable=True)


@function_tool
def request_refund(request_id: str, charge_id: str, amount_cents: int) -> str:
    """File a refund request for an admin to review."""
    with Session(engine) as session:
        session.add(RefundRequest(id=request_id, charge_id=charge_id,  # EXPECT: UNGOVERNED-PATH
                                  amount_cents=amount_cents, approved=False))
        session.commit()  # EXPECT: UNGOVERNED-PATH
    return "filed for review"


support_agent = Agent(name="support", tools=[request_refund])


@app.post("/refund-requests/{request_id}/approve")
def approve_refund(request_id: str, admin: Admin = Depends(require_admin)) -> dict:
    with Session(engine) as session:
        request = session.get(RefundRequest, request_id)
        if request is None:
            raise HTTPException(status_code=404)
        request.approved = True
        request.approved_by = admin.id
        session.commit()
    return {"approved": True}


def pay_approved_refunds() -> None:
    """Nightly: pay every request an admin approved."""
    with Session(engine) as session:
        for request in session.scalars(select(RefundRequest)):
            if request.approved:  # EXPECT-NOT: MODEL-CONSENT
                stripe.Refund.create(charge=request.charge_id, amount=request.amount_cents)
