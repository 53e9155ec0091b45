"""The integration-event envelope: {id, type, version, occurredAt, source, correlationId, data}."""

import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class Envelope(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    id: uuid.UUID = Field(default_factory=uuid.uuid4)
    type: str
    version: int = 1
    occurred_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    source: str
    correlation_id: str | None = None
    data: dict[str, Any]

    @property
    def routing_key(self) -> str:
        return self.type

    def to_json(self) -> bytes:
        return self.model_dump_json(by_alias=True).encode()

    @classmethod
    def from_json(cls, raw: bytes | str) -> "Envelope":
        return cls.model_validate_json(raw)
