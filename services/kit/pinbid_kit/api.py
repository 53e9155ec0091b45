"""Base models for the public JSON API: camelCase on the wire, unknown fields refused."""

from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, PlainSerializer
from pydantic.alias_generators import to_camel


class ApiModel(BaseModel):
    """Request and response bodies. Unknown fields are a 422, strings are trimmed."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        str_strip_whitespace=True,
        str_max_length=10_000,
        from_attributes=True,
    )


# Money leaves the server as a JSON number with at most two decimals; inside it is always Decimal.
Money = Annotated[Decimal, PlainSerializer(lambda v: float(v) if v is not None else None, return_type=float)]
