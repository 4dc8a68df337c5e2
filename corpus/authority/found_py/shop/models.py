from sqlalchemy.orm import DeclarativeBase, Mapped


class Base(DeclarativeBase):
    pass


class RefundRule(Base):
    __tablename__ = "refund_rules"
    max_auto_refund_cents: Mapped[int]
    active: Mapped[bool]
