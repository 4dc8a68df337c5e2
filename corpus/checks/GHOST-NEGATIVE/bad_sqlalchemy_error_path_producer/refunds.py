import stripe
from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class RefundRecord(Base):
    __tablename__ = "refunds"
    request_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))


def refund_once(session: Session, request_id: str, charge_id: str):
    if not session.query(RefundRecord).filter_by(request_id=request_id).first():  # EXPECT: GHOST-NEGATIVE
        try:
            stripe.Refund.create(charge=charge_id)
        except stripe.error.StripeError:
            session.add(RefundRecord(request_id=request_id, status="failed"))
            session.commit()
            raise
