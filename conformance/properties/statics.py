"""Properties of what a phased-out permanent's static abilities apply to
(702.26b, 702.26c, 702.26g; R2017-nonexistent): an anthem applies nothing
while it is phased out, with its host or on its own, and applies again once
it is back, at an untap step or mid-turn (610.4); a creature phased in is
counted again. What a resolving spell's effects apply to (702.26e) is
`conformance.properties.resolving`'s."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import PermanentView
from conformance.properties.existence import counted, drawn
from conformance.properties.history import (
    abilities,
    carried_out,
    ceased_while_phased_out,
    view,
    was_in_went_out,
    was_out_came_in,
)
from conformance.properties.leads import turns_to_untap
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup, SkipUntap
from conformance.strategies._draw import maybe, pick
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import new_id, with_permanents

#: Actions that change no power or controller but through phasing, so an
#: anthem moving is the only reason a creature's power changes (a token
#: enters as a creature with no anthem; what phases out "until" a source
#: leaves phases in as it does, 610.4).
_ANTHEM_ONLY = (
    a.PassTurn,
    a.PhaseOut,
    a.PhaseOutAll,
    a.PhaseOutUntil,
    a.DrawPerCreature,
    a.CreateToken,
)


def _anthem_scenarios(
    caps: Collection[C], *kinds: type, released: bool = False
) -> st.SearchStrategy[Scenario]:
    """Anthems on creatures, enchantments, and Auras and Equipment attached
    to creatures that may have phasing: they phase out and in directly or
    with their host (702.26g), by spells and at untap steps; first one of
    them phases out and back in (with `released`, half the time by its
    "until" source leaving, `_released_mid_turn`)."""

    def plan(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
        if released and {C.PHASE_OUT_UNTIL, C.DESTROY} <= set(caps) and maybe(draw):
            return _released_mid_turn(draw, setup, caps)
        return setup, _anthem_out_and_back(draw, setup, caps)

    return planned_scenarios(
        set(caps) - {C.PT_BOOST, C.SKIP_UNTAP},
        plan,
        kinds=(a.PhaseOut, a.PassTurn, a.PassTurn, *kinds),
        min_permanents=4,
        effects=False,
        permanent_kinds=("creature", "aura", "creature", "equipment", "enchantment"),
        abilities=("anthem",),
        chains=True,
    )


def _anthem_root(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[Permanent, tuple[a.Action, ...], tuple[a.Action, ...]] | None:
    """What phases out to take a phased-in anthem with it: the anthem itself
    or the permanent its Aura or Equipment is attached to (702.26g); then
    the actions that make sure a creature of its controller without phasing
    shows the bonus throughout (one of the setup, else a token created
    first), and a "draw a card for each creature you control" of the
    root's controller, if the engine counts creatures."""
    by_id = {p.id: p for p in setup.permanents}
    roots = [
        (s, root)
        for s in setup.permanents
        if "anthem" in s.abilities and s.phased_out is None
        for root in (s, by_id.get(s.attached_to) if isinstance(s.attached_to, str) else None)
        if root is not None
    ]
    if not roots or C.TARGETING not in caps:
        return None
    # Twice as likely: an Aura or Equipment's anthem phasing with its host.
    s, root = pick(draw, roots + [r for r in roots if r[0] is not r[1]])
    steady = any(
        c.is_creature and c.phased_out is None and not c.phasing and c.controller == s.controller
        for c in setup.permanents
        if c.id not in (s.id, root.id)
    )
    witness = () if steady or C.TOKENS not in caps else (a.CreateToken(s.controller, "t1", 0),)
    count = (a.DrawPerCreature(root.controller),) if C.COUNT_CREATURES in caps else ()
    return root, witness, count


def _anthem_out_and_back(
    draw: st.DrawFn, setup: Setup, caps: Collection[C]
) -> tuple[a.Action, ...]:
    """An anthem phases out (`_anthem_root`); its controller's next untap
    step phases it back in (702.26a); creatures are counted before and
    after."""
    found = _anthem_root(draw, setup, caps)
    if found is None:
        return ()
    root, witness, count = found
    return (
        *witness,
        a.PhaseOut(root.controller, (root.id,)),
        *count,
        *turns_to_untap(setup, root.controller),
        *count,
    )


def _released_mid_turn(draw: st.DrawFn, setup: Setup, caps: Collection[C]) -> Planned:
    """An anthem phases out (`_anthem_root`) "until" a new artifact of its
    root's controller leaves the battlefield, and that artifact is
    destroyed: the anthem phases in at once, mid-turn (610.4), and applies
    from then on (702.26c), not from the next untap step."""
    found = _anthem_root(draw, setup, caps)
    if found is None:
        return setup, ()
    root, witness, count = found
    source = Permanent(new_id(setup), root.controller, root.controller, ("artifact",))
    return with_permanents(setup, source), (
        *witness,
        a.PhaseOutUntil(root.controller, source.id, root.id),
        *count,
        a.Destroy(root.controller, source.id),
        *count,
    )


def _takes_no_anthem(setup: Setup, x: a.Action) -> bool:
    """`x` destroys a permanent of the setup that has no anthem and nothing
    attached to it: no anthem leaves with it, and what waited for it phases
    in (610.4), which is phasing like any other."""
    if not isinstance(x, a.Destroy) or x.phased_out_in_response:
        return False
    target = next((p for p in setup.permanents if p.id == x.target), None)
    hosts = {p.attached_to for p in setup.permanents}
    return target is not None and "anthem" not in target.abilities and target.id not in hosts


def _only_anthems_change_power(trace: Trace) -> bool:
    setup = trace.scenario.setup
    return all(isinstance(e, SkipUntap) for e in setup.effects) and all(
        isinstance(x, _ANTHEM_ONLY) or _takes_no_anthem(setup, x) for x in trace.scenario.actions
    )


def _anthems_moved(trace: Trace, step: Step) -> tuple[list[PermanentView], list[PermanentView]]:
    """The anthems that phased out during `step`, as they were before it, and
    those that phased in, as they are after it: on their own or with the
    permanent they are attached to (702.26g). A token anthem that ceased to
    exist as it phased out (702.25k, 217.8d, in the editions where it does)
    phased out all the same."""
    ids = [p.id for p in step.before.permanents if "anthem" in abilities(trace.scenario, p.id)]
    out = [
        b
        for b in map(step.before.permanent, ids)
        if was_in_went_out(step, b.id) or (b.phased_in and ceased_while_phased_out(step, b.id))
    ]
    came = [step.after.permanent(pid) for pid in ids if was_out_came_in(step, pid)]
    return out, came


#: A creature before and after a step, with how many anthems that apply to
#: it phased out and phased in during the step.
Change = tuple[PermanentView, PermanentView, int, int]


def _anthem_changes(trace: Trace, step: Step) -> Iterator[Change]:
    """Each creature phased in under one controller before and after `step`,
    as before and after, with how many anthems of its controller other than
    itself phased out and phased in during it ("other creatures you control
    get +1/+1"). Nothing when something else may change power."""
    if step.after.refused is not None or not _only_anthems_change_power(trace):
        return
    out, came = _anthems_moved(trace, step)
    if not out and not came:
        return
    for c in step.after.permanents:
        b = view(step.before, c.id)
        if b is None or not (b.phased_in and c.phased_in) or b.controller != c.controller:
            continue
        if b.power is None or c.power is None:
            continue
        lost = sum(1 for s in out if s.controller == c.controller and s.id != c.id)
        gained = sum(1 for s in came if s.controller == c.controller and s.id != c.id)
        yield b, c, lost, gained


def _expect_power(trace: Trace, step: Step, rule: str, change: Change) -> None:
    b, c, lost, gained = change
    expect(
        c.power == b.power - lost + gained,
        rule,
        f"{where(trace, step)}, {c.id}",
        f"power {b.power - lost + gained} ({lost} anthem(s) phased out, {gained} phased in)",
        f"power {c.power}",
    )


def _an_anthem_left_and_its_bonus_went(trace: Trace) -> bool:
    """R2017-nonexistent: an anthem phased out, on its own or with the
    permanent it is attached to, and another creature of its controller
    that stayed phased in lost its bonus."""
    return any(
        lost and c.power < b.power
        for step in trace.steps
        for b, c, lost, _ in _anthem_changes(trace, step)
    )


@rule_property(
    "R2017-nonexistent",
    "702.26b",
    needs={C.ANTHEM},
    scenarios=lambda caps: _anthem_scenarios(caps),
    exercised=_an_anthem_left_and_its_bonus_went,
)
def phased_out_static_abilities_apply_nothing(trace: Trace) -> None:
    """When an anthem ("other creatures you control get +1/+1") phases out,
    directly or with the creature its Aura or Equipment is attached to
    (702.26g), each other creature of its controller loses the bonus at
    once."""
    for step in trace.steps:
        for change in _anthem_changes(trace, step):
            if change[2]:
                _expect_power(trace, step, "R2017-nonexistent", change)


def _came_in_with_anthems(trace: Trace, step: Step) -> Iterator[tuple[str, int, list[str]]]:
    """Each creature of the setup that phased in during `step`, with the
    power it has then: its own, its +1/+1 counters, and +1 for each other
    phased-in anthem of its controller (613.4). Nothing when something else
    may change power."""
    if step.after.refused is not None or not _only_anthems_change_power(trace):
        return
    for p in trace.scenario.setup.permanents:
        c = view(step.after, p.id)
        if p.power is None or c is None or not was_out_came_in(step, p.id):
            continue
        anthems = [
            s.id
            for s in step.after.permanents
            if s.phased_in
            and s.id != p.id
            and s.controller == c.controller
            and "anthem" in abilities(trace.scenario, s.id)
        ]
        yield p.id, p.power + dict(c.counters).get("+1/+1", 0) + len(anthems), anthems


def _phased_in_earlier(trace: Trace, step: Step) -> set[str]:
    """What the engine showed phasing in before `step`."""
    came: set[str] = set()
    for s in trace.steps[: trace.steps.index(step)]:
        came |= {p.id for p in s.after.permanents if was_out_came_in(s, p.id)}
    return came


def _applied_or_counted_again(trace: Trace) -> bool:
    """702.26c: an anthem phased back in, on its own or with its host, and
    another creature of its controller that stayed phased in got its bonus
    again; or a creature that had phased in was counted by a "draw a card
    for each creature you control" that drew cards."""
    for step in trace.steps:
        if any(gained and c.power > b.power for b, c, _, gained in _anthem_changes(trace, step)):
            return True
    for step, x in carried_out(trace, a.DrawPerCreature):
        ids = counted(trace, step.before, x.player)
        if drawn(step, x.player) == len(ids) and set(ids) & _phased_in_earlier(trace, step):
            return True
    return False


@rule_property(
    "702.26c",
    needs={C.ANTHEM},
    scenarios=lambda caps: _anthem_scenarios(
        caps, *((a.DrawPerCreature,) if C.COUNT_CREATURES in caps else ()), released=True
    ),
    exercised=_applied_or_counted_again,
)
def phased_in_permanents_apply_and_count_again(trace: Trace) -> None:
    """Once phased in, a permanent exists again: an anthem that phased in,
    on its own or with its host (702.26g), gives other creatures of its
    controller +1/+1 again, and a creature that phased in gets the bonus
    of its controller's anthems and is counted by "draw a card for each
    creature you control". At once, whenever it phases in: at an untap
    step (702.26a) or mid-turn, as the source it waited for leaves the
    battlefield (610.4)."""
    for step in trace.steps:
        for change in _anthem_changes(trace, step):
            if change[3]:
                _expect_power(trace, step, "702.26c", change)
        for pid, power, anthems in _came_in_with_anthems(trace, step):
            c = step.after.permanent(pid)
            expect(
                c.power == power,
                "702.26c",
                f"{where(trace, step)}, {pid}",
                f"power {power} (phased in; anthems: {', '.join(anthems) or 'none'})",
                f"power {c.power}",
            )
    for step, x in carried_out(trace, a.DrawPerCreature):
        ids = counted(trace, step.before, x.player)
        again = sorted(set(ids) & _phased_in_earlier(trace, step))
        if again:
            n = drawn(step, x.player)
            expect(
                n == len(ids),
                "702.26c",
                where(trace, step),
                f"{len(ids)} card(s), for {', '.join(ids)} ({', '.join(again)} phased in)",
                f"{n} card(s) drawn",
            )
