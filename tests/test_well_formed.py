"""The in-place check of an engine's observation (`is_well_formed`) takes
only what the codec's round trip takes, and leaves everything else to it,
so its message still names the bad field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.reference import ReferenceEngine
from conformance.actions import PassTurn
from conformance.codec import DecodeError, from_data, to_data
from conformance.observation import Observation, PermanentView, PlayerView
from conformance.running import EngineError, checked_observation, play
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup
from conformance.well_formed import is_well_formed

SCENARIO = Scenario(
    Setup(
        permanents=(
            Permanent("p1", phasing=1, power=1, toughness=1),
            Permanent("p2", power=2, toughness=2, counters=(("+1/+1", 1),)),
        )
    ),
    (PassTurn(),) * 3,
)
OBSERVATION = play(ReferenceEngine(), SCENARIO).steps[-1].after

#: Values of every JSON shape and then some, to put in a field.
ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.sampled_from(["", "p1", "battlefield", "direct", "phased_in", "+1/+1"]),
    st.lists(st.integers(0, 2), max_size=2),
    st.tuples(st.text(max_size=2), st.integers(0, 2)),
    st.tuples(st.tuples(st.sampled_from(["+1/+1", 1]), st.integers(0, 2))),
    st.builds(PlayerView, st.integers(0, 1)),
)


def replaced(value: Any, name: str, new: Any) -> Any:
    """`value` with field `name` set to `new`, unchecked (as an adapter
    might build it)."""
    copy = dataclasses.replace(value)
    object.__setattr__(copy, name, new)
    return copy


def test_what_the_reference_returns_is_well_formed() -> None:
    """The in-place check is the usual path, not only a fallback."""
    for step in play(ReferenceEngine(), SCENARIO).steps:
        assert is_well_formed(Observation, step.after)


@given(
    st.sampled_from([f.name for f in dataclasses.fields(PermanentView)]),
    ANYTHING,
    st.integers(0, 1),
)
def test_a_permanent_field_taken_in_place_is_one_the_codec_takes(
    name: str, new: Any, which: int
) -> None:
    permanents = list(OBSERVATION.permanents)
    permanents[which] = replaced(permanents[which], name, new)
    observation = replaced(OBSERVATION, "permanents", tuple(permanents))
    if is_well_formed(Observation, observation):
        assert from_data(Observation, to_data(observation)) == observation


@given(st.sampled_from([f.name for f in dataclasses.fields(Observation)]), ANYTHING)
def test_an_observation_field_taken_in_place_is_one_the_codec_takes(name: str, new: Any) -> None:
    observation = replaced(OBSERVATION, name, new)
    if is_well_formed(Observation, observation):
        assert from_data(Observation, to_data(observation)) == observation


@pytest.mark.parametrize(
    ("field", "value", "accepted"),
    [
        ("turn", True, False),  # a bool is not an int
        ("permanents", list(OBSERVATION.permanents), True),  # a list for a tuple
        ("refused", 3, False),
        ("players", (PermanentView("p9", "battlefield"),), False),
    ],
)
def test_what_is_not_well_formed_at_a_glance_is_judged_by_the_codec(
    field: str, value: Any, accepted: bool
) -> None:
    observation = replaced(OBSERVATION, field, value)
    assert not is_well_formed(Observation, observation)
    if accepted:
        assert checked_observation("engine", "start", observation) is observation
    else:
        with pytest.raises(EngineError, match=rf"malformed observation on start: \$\.{field}"):
            checked_observation("engine", "start", observation)
        with pytest.raises(DecodeError):
            from_data(Observation, to_data(observation))


def test_a_subclass_or_a_missing_field_is_left_to_the_codec() -> None:
    class Mine(PermanentView):
        pass

    mine = Mine(
        **{
            f.name: getattr(OBSERVATION.permanents[0], f.name)
            for f in dataclasses.fields(PermanentView)
        }
    )
    assert not is_well_formed(PermanentView, mine)
    missing = replaced(OBSERVATION, "turn", 1)
    del missing.__dict__["turn"]
    assert not is_well_formed(Observation, missing)
