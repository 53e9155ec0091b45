"""A buyer tied to the slot's creator by a hard signal (the same account details, pinbid_kit.events.trust) may not
bid on the creator's slots: the check is a column of the statement that reads the slot, so a refusal still costs
one statement, and refused with 403 `associated_account` (the words are `domain/trust.py`'s)."""

from pinbid_kit.errors import Forbidden
from sqlalchemy import ColumnElement, func, literal_column, select
from sqlalchemy.orm import aliased

from .domain import trust
from .models import AccountSignal


def shared_hard_signal(buyer_id: ColumnElement, creator_id: ColumnElement) -> ColumnElement:
    """The kind of a hard signal (pinbid_kit.events.trust.HARD_SIGNALS) the buyer shares with the creator, or
    NULL: a column of the pre-check's own statement, so a refusal still costs one statement. The kinds are written
    in the statement (constants), so it has one shape (and the hot-path benchmark can replay it as compiled)."""
    own, creators = aliased(AccountSignal), aliased(AccountSignal)
    return (select(func.min(own.kind))
            .join(creators, (creators.kind == own.kind) & (creators.value_hash == own.value_hash))
            .where(own.user_id == buyer_id, creators.user_id == creator_id,
                   own.kind.in_([literal_column(f"'{kind}'") for kind in sorted(trust.HARD_SIGNALS)]))
            .scalar_subquery().label("shared_signal"))


def refuse_associated(shared_kind: str | None) -> None:
    message = trust.refusal(shared_kind)
    if message is not None:
        raise Forbidden(message, code="associated_account")
