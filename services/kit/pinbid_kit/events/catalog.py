from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from ..envelope import Envelope


class EventData(BaseModel):
    """Payload of one event type. Producers build it strictly; consumers tolerate extra fields."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")
    event_type: ClassVar[str]
    description: ClassVar[str]

    def payload(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


EVENTS: dict[str, type[EventData]] = {}
T = TypeVar("T", bound=type[EventData])


def event(event_type: str):
    """Register a payload model under its routing key, e.g. 'identity.user.registered.v1'."""

    def register(cls: T) -> T:
        if event_type in EVENTS:
            raise ValueError(f"event type {event_type} registered twice")
        cls.event_type = event_type
        cls.description = (cls.__doc__ or "").strip()
        EVENTS[event_type] = cls
        return cls

    return register


def parse(envelope: Envelope) -> EventData:
    """The typed payload of an envelope; raises for unknown types or invalid data."""
    return EVENTS[envelope.type].model_validate(envelope.data)
