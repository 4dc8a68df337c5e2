import stripe
from sqlalchemy import String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class RefundRecord(Base):
    __tablename__ = "refunds"
    request_id: Mapped[str] = mapped_column(String(64), primary_key=True)


def refund_once(session: Session, request_id: str, charge_id: str):
    if not session.query(RefundRecord).filter_by(request_id=request_id).first():  # EXPECT: GHOST-NEGATIVE
        stripe.Refund.create(charge=charge_id)


def refund_once_v2(session: Session, request_id: str, charge_id: str):
    existing = session.scalars(
        select(RefundRecord).where(RefundRecord.request_id == request_id)).first()
    if existing is None:  # EXPECT: GHOST-NEGATIVE
        stripe.Refund.create(charge=charge_id)
