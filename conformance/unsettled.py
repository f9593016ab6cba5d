"""Where the rules leave the outcome open, for the comparison with the
reference engine (docs/readings.md).

The properties accept every reading of an open case. The comparison can't:
the reference engine implements one reading, and an engine that implements
another parts ways with it from there on, in fields no certified rule
settles. So the comparison stops at the first action whose outcome a
reading can change, and compares nothing from that action on: the
properties concerned go on judging the engine there.

Each case is recognised from what the reference engine showed, with how
each permanent phased out taken from the scenario's history
(`phased_out_history`), so every engine's comparison stops at the same
action. A player's pick of the legendary permanent they keep (readings I)
is recognised from the setup's namesakes. A player's free pick among
replacement effects (readings M) can't be seen in what one play showed: it
is where the reference engine's play parts ways with the same engine's
whose players pick otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.reference import ReferenceEngine, choosing_otherwise
from conformance import actions as a
from conformance.observation import Observation, PermanentView
from conformance.properties.effects import Out, phased_out_history
from conformance.properties.history import shown_phased_out, view
from conformance.running import Step, Trace
from conformance.setup import Ability, Setup

#: The replacements whose controller draws instead of a player's gain or
#: loss of life: which of several applies decides who draws (readings M).
_PICKED: tuple[Ability, ...] = ("gain_to_draw", "lose_to_draw")


def unsettled_from(expected: Trace, reference: ReferenceEngine | None = None) -> int | None:
    """The first action (1 for the first) whose outcome the rules leave
    open, in `reference`'s play `expected` of a scenario (by default today's
    oracle's); None if every outcome is settled."""
    history = phased_out_history(expected)
    namesakes = _namesakes(expected.scenario.setup)
    defending: int | None = None
    for k, step in enumerate(expected.steps, 1):
        if unsettled_by(step, history[k - 1], defending) is not None:
            return k
        if any(_one_kept(step, ids) for ids in namesakes):
            return k
        if step.after.refused is None and isinstance(step.action, a.DeclareAttackers):
            defending = step.action.defender
        elif step.after.refused is None and isinstance(step.action, a.PassTurn):
            defending = None
    return picked_from(expected, reference or ReferenceEngine())


def picked_from(expected: Trace, reference: ReferenceEngine) -> int | None:
    """M: the first action (1 for the first) whose outcome was a player's
    pick among replacement effects of different controllers (616.1), in
    `reference`'s play `expected`: the first where the play of players who
    pick otherwise (`choosing_otherwise`) shows something else."""
    permanents = expected.scenario.setup.permanents
    if all(sum(ability in p.abilities for p in permanents) < 2 for ability in _PICKED):
        return None  # tokens have no abilities: never two to pick from
    game = choosing_otherwise(reference).start(expected.scenario.setup)
    for k, step in enumerate(expected.steps, 1):
        if game.perform(step.action) != step.after:
            return k
    return None


def settled_steps(expected: Trace, reference: ReferenceEngine | None = None) -> tuple[Step, ...]:
    """The steps of `reference`'s play `expected` before its first open
    case (`unsettled_from`): those the comparison compares."""
    k = unsettled_from(expected, reference)
    return expected.steps if k is None else expected.steps[: k - 1]


def unsettled_by(step: Step, out: Mapping[str, Out], defending: int | None = None) -> str | None:
    """The case of docs/readings.md that `step` of the reference engine's
    play leaves open, if any: "A", "B", "C", "D" or "L". `out` says how each
    permanent phased out was phased out before it; `defending` is the
    defending player of the combat under way, if one is."""
    before, after = step.before, step.after
    for pid, how in out.items():
        host = view(after, how.host) if isinstance(how.host, str) else None
        still_out = shown_phased_out(view(after, pid))
        if how.cause == "direct" and shown_phased_out(host) and not still_out:
            # A: 702.26i, a directly phased-out attachment phasing in while
            # its host is phased out: attached (literal) or not (702.26b).
            return "A"
        host_left = isinstance(how.host, str) and not _on_battlefield(host)
        if how.cause == "indirect" and host_left and still_out:
            # B: 702.26g, an indirectly phased-out attachment whose host
            # left the game: it stays out, or phases in unattached.
            return "B"
        source = how.until
        gone = source is not None and not _on_battlefield(view(after, source))
        if gone and shown_phased_out(view(before, source)):  # type: ignore[arg-type]
            # C: 610.4, the source of "until" leaving while phased out.
            return "C"
    if isinstance(step.action, a.Concede) and _state_based_actions_pending(after):
        # D: 704.3, nobody need receive priority after a concession; an
        # engine may check state-based actions at once.
        return "D"
    if (
        isinstance(step.action, a.Concede)
        and step.action.player == defending
        and step.after.refused is None
        and any(v.attacking for v in before.permanents)
    ):
        # L: no certified rule says whether creatures attacking a player who
        # leaves stay attacking (506.4 doesn't list it; 800.4a is silent).
        return "L"
    return None


def _namesakes(setup: Setup) -> list[list[str]]:
    """The legendary permanents of `setup`, grouped by name, where a name
    has more than one."""
    names: dict[str, list[str]] = {}
    for p in setup.permanents:
        if p.legendary:
            names.setdefault(p.card_name, []).append(p.id)
    return [ids for ids in names.values() if len(ids) > 1]


def _one_kept(step: Step, ids: list[str]) -> bool:
    """I: 704.5j, the legend rule applied in `step`: a player's legendary
    permanent left the battlefield, not the target of a destroy spell,
    while a namesake stays phased in under them. Which one they keep is
    their choice (readings I), so an engine may have kept the other."""
    target = getattr(step.action, "target", None)
    gone = [
        view(step.before, pid)
        for pid in ids
        if pid != target
        and _on_battlefield(view(step.before, pid))
        and not _on_battlefield(view(step.after, pid))
    ]
    kept = {v.controller for pid in ids if _phased_in(v := view(step.after, pid))}
    return any(v is not None and v.controller in kept for v in gone)


def _phased_in(v: PermanentView | None) -> bool:
    return v is not None and v.phased_in


def _on_battlefield(v: PermanentView | None) -> bool:
    return v is not None and v.on_battlefield


def _state_based_actions_pending(obs: Observation) -> bool:
    """`obs` shows what a check of state-based actions would change: a
    phased-in attachment on something no longer there, phased out, or on a
    player who left (704.5m, 704.5n), or a phased-in creature with
    toughness 0 or less or lethal damage (704.5f, 704.5g)."""
    left = {p.index for p in obs.players if not p.in_game}
    for v in obs.permanents:
        if not v.phased_in:
            continue
        host = v.attached_to
        if isinstance(host, str) and not _phased_in(view(obs, host)):
            return True
        if isinstance(host, int) and host in left:
            return True
        if v.toughness is not None and (v.toughness <= 0 or 0 < v.toughness <= v.damage):
            return True
    return False
