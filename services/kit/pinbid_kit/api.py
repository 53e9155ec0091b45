"""Base models and field types for the public JSON API: camelCase on the wire, unknown fields refused,
text without control characters, money as JSON numbers only."""

from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, PlainSerializer, WithJsonSchema
from pydantic.alias_generators import to_camel

from .text import unsafe_character


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


def _one_line(value: str) -> str:
    if unsafe_character(value) is not None:
        raise ValueError("Line breaks, control characters and invisible formatting characters are not allowed.")
    return value


def _lines(value: str) -> str:
    if unsafe_character(value, multiline=True) is not None:
        raise ValueError("Control characters and invisible formatting characters are not allowed.")
    return value


class _Documented:
    """Adds the rule to the field's JSON Schema as a pattern, so clients and fuzzers know it (the validator
    above stays the rule; the pattern spells out the same characters for a regular expression engine)."""

    def __init__(self, pattern: str):
        self.pattern = pattern

    def __get_pydantic_json_schema__(self, core_schema, handler) -> dict[str, Any]:
        schema = handler.resolve_ref_schema(handler(core_schema))
        schema["pattern"] = self.pattern
        return schema


_FORMAT = ("\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u202a-\\u202e"
           "\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb")
ONE_LINE_PATTERN = f"^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029{_FORMAT}]*$"
LINES_PATTERN = f"^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u2028\\u2029{_FORMAT}]*$"

# Every string a request may carry (body, query or path) is one of these two: a NUL or a bidi override
# is a 422 naming the field, never a database error.
PlainText = Annotated[str, AfterValidator(_one_line), _Documented(ONE_LINE_PATTERN)]
"""One line: names, titles, emails, ids, search strings."""
MultilineText = Annotated[str, AfterValidator(_lines), _Documented(LINES_PATTERN)]
"""Line breaks and tabs allowed: descriptions, comment texts."""


def _json_number(value: Any) -> Any:
    """Money arrives as a JSON number; "1e3", " 50 " or any other string is refused, as is true."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise ValueError("Enter the amount as a number.")
    return value


# Money is a JSON number with at most two decimals on the wire; inside it is always Decimal.
Money = Annotated[
    Decimal,
    BeforeValidator(_json_number),
    PlainSerializer(lambda v: float(v) if v is not None else None, return_type=float),
    WithJsonSchema({"type": "number"}),
]
