import logging

import stripe
from sqlalchemy import String
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

log = logging.getLogger(__name__)


class Base(DeclarativeBase):
    pass


class RefundRecord(Base):
    __tablename__ = "refunds"
    request_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    stripe_id: Mapped[str] = mapped_column(String(64))


def refund_once(session: Session, request_id: str, charge_id: str):
    if not session.query(RefundRecord).filter_by(request_id=request_id).first():  # EXPECT: GHOST-NEGATIVE
        refund = stripe.Refund.create(charge=charge_id)
        try:
            session.add(RefundRecord(request_id=request_id, stripe_id=refund.id))
            session.commit()
        except SQLAlchemyError:
            log.warning("could not record refund %s", request_id)
