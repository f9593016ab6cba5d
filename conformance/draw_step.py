"""The draw step's draw, which the suite leaves to the engine.

Scenarios have no action for the draw step, and an engine may draw there or
not (504.1; docs/observations.md): cards drawn across a `PassTurn` are not
compared. That draw may change life, though: an opponent's "If an opponent
would draw a card, that player gains 2 life instead" (`draw_to_life`,
614.1a) replaces it with a gain of `DRAW_LIFE`. Where it can, a turn passed
is judged with or without that gain.
"""

from __future__ import annotations

from conformance import actions as a
from conformance.running import Step
from conformance.setup import Setup


def draw_step_gainers(setup: Setup, step: Step) -> frozenset[int]:
    """The players whose life a draw in the draw step of `step` may change
    by `DRAW_LIFE`: after a `PassTurn` carried out, the new active player,
    if an opponent controls a phased-in permanent with `draw_to_life`."""
    if not isinstance(step.action, a.PassTurn) or step.after.refused is not None:
        return frozenset()
    active = step.after.active
    replacing = {p.id for p in setup.permanents if "draw_to_life" in p.abilities}
    for v in step.after.permanents:
        if v.id in replacing and v.phased_in and v.controller not in (None, active):
            return frozenset({active})
    return frozenset()
