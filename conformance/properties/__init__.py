"""The properties of the suite, one module per group of rules; importing this
package registers them all in `REGISTRY`."""

from conformance.properties import (  # noqa: F401
    as_long_as,
    attachments,
    blocking,
    combat,
    damage,
    durations,
    editions,
    entered,
    entering,
    existence,
    identity,
    leaving_control,
    legends,
    life,
    limited,
    mirage,
    multiplayer,
    phase_events,
    protection,
    replacement,
    responses,
    sickness,
    statics,
    triggers,
    unattached,
    unprevented,
    untap,
    until,
    upkeep,
    waiting,
)
from conformance.properties.registry import (
    OLDER_ONLY,
    REGISTRY,
    Property,
    Violation,
    every_property,
    in_edition,
    rule_property,
)

__all__ = [
    "OLDER_ONLY",
    "REGISTRY",
    "Property",
    "Violation",
    "every_property",
    "in_edition",
    "rule_property",
]
