"""Phasing in is not entering the battlefield: a phased-out token stays on
the battlefield and phases back in, a permanent enters phased in, and a
creature that phases in as its controller's turn begins can tap and attack
(110.5, 704.5d; R2017-tokens, R2017-haste)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.effects import focus, phased_out_under
from conformance.properties.history import (
    abilities,
    in_game,
    phasings,
    view,
    waiting_for_source,
    was_out_came_in,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import PhasedOut
from conformance.strategies import Caps, action_lists, scenarios, setups
from conformance.strategies._draw import composite, integer, pick


def _tokens(trace: Trace) -> set[str]:
    """The tokens of the scenario: set up, or created by its actions."""
    tokens = {p.id for p in trace.scenario.setup.permanents if p.token}
    return tokens | {x.id for x in trace.scenario.actions if isinstance(x, a.CreateToken)}


def _a_token_phased_out_and_stayed(trace: Trace) -> bool:
    """R2017-tokens, 704.5d: a token phased out and was still on the
    battlefield after a later action (phased out, or back in), or a phased-out
    token phased in."""
    tokens, went_out = _tokens(trace), set()
    for step in trace.steps:
        if step.after.refused is not None:
            continue
        for pid in tokens:
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not (b.on_battlefield and c.on_battlefield):
                continue
            if pid in went_out or (b.phased_out and c.phased_in):
                return True
            if b.phased_in and c.phased_out:
                went_out.add(pid)
    return False


@rule_property(
    "R2017-tokens",
    "704.5d",
    needs={C.TOKENS},
    scenarios=lambda caps: scenarios(
        # PassTurn twice among the kinds (drawn uniformly): tokens phase out
        # and back in at untap steps.
        set(caps) - {C.SKIP_UNTAP},
        kinds=(a.PassTurn, a.PassTurn, a.CreateToken, a.PhaseOut),
        min_actions=4,
        min_permanents=1,
        permanent_kinds=("creature",),
    ),
    exercised=_a_token_phased_out_and_stayed,
    reads={"events"},
)
def phased_out_tokens_stay_and_phase_in(trace: Trace) -> None:
    """A phased-out token stays on the battlefield (704.5d) and phases in at
    its controller's next untap step (R2017-tokens)."""
    tokens = _tokens(trace)
    unders = phased_out_under(trace)
    status = phasings(trace)
    waiting = waiting_for_source(trace)
    for i, step in enumerate(trace.steps):
        for pid in tokens:
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not b.on_battlefield:
                continue
            at = f"{where(trace, step)}, token {pid}"
            if b.phased_out or c.phased_out or step.after.events_of("phased_out", pid):
                expect(c.on_battlefield, "704.5d", at, "still on the battlefield", c.zone)
            was = status[i].get(pid)
            # 610.4: while it waits for its "until" source, the untap step
            # does not phase it in; only that step and that token are spared.
            if (
                isinstance(step.action, a.PassTurn)
                and step.after.refused is None
                and b.phased_out
                and was is not None
                and was.cause == "direct"
                and pid not in waiting[i]
                and unders[i].get(pid) == step.after.active
            ):
                expect(c.phased_in, "R2017-tokens", at, "it phases in", "still phased out")


def _a_token_entered_phased_in(trace: Trace) -> bool:
    """110.5: a token was created and seen on the battlefield, phased in."""
    for step in trace.steps:
        x = step.action
        if isinstance(x, a.CreateToken) and step.after.refused is None:
            b, c = view(step.before, x.id), view(step.after, x.id)
            if (b is None or not b.on_battlefield) and c is not None and c.phased_in:
                return True
    return False


@rule_property(
    "110.5",
    needs={C.TOKENS},
    scenarios=lambda caps: scenarios(caps, kinds=(a.CreateToken, a.PassTurn), min_actions=1),
    exercised=_a_token_entered_phased_in,
)
def permanents_enter_phased_in(trace: Trace) -> None:
    """A permanent enters the battlefield phased in."""
    for step in trace.steps:
        if isinstance(step.action, a.CreateToken) and step.after.refused is None:
            c = view(step.after, step.action.id)
            expect(
                c is not None and c.phased_in,
                "110.5",
                where(trace, step),
                f"token {step.action.id} on the battlefield, phased in",
                "missing" if c is None else f"{c.zone}, phased out={c.phased_out}",
            )


def _moves_of_phased_in_creatures(trace: Trace) -> Iterator[tuple[Step, tuple[str, ...]]]:
    """Each Activate of "{T}: gain 1 life" of a creature that phased in in
    this turn's untap step, and each first DeclareAttackers of a turn with
    at least one such creature, by the active player: the moves R2017-haste
    says they can make. Every creature in them is phased in, untapped and
    the active player's, and was theirs since the turn began (302.6: not
    summoning sick), phased in or out."""
    came_in: set[str] = set()
    steady: set[str] = set()
    attacked = False
    creatures = {p.id for p in trace.scenario.setup.permanents if p.is_creature}
    for step in trace.steps:
        x, b = step.action, step.before
        if isinstance(x, a.PassTurn):
            came_in = {p.id for p in step.after.permanents if was_out_came_in(step, p.id)}
            steady = {
                p.id
                for p in step.after.permanents
                if p.on_battlefield
                and p.controller == step.after.active
                and (v := view(step.before, p.id)) is not None
                and v.on_battlefield
                and v.controller == p.controller
            }
            attacked = False
            continue
        ready = {
            pid
            for pid in (came_in | steady) & creatures
            if (v := view(b, pid)) is not None
            and v.phased_in
            and not v.tapped
            and v.controller == b.active
        }
        if (
            isinstance(x, a.Activate)
            and x.player == b.active
            and x.source in ready & came_in
            and "tap_gain_life" in abilities(trace.scenario, x.source)
        ):
            yield step, (x.source,)
        if isinstance(x, a.DeclareAttackers) and not attacked:
            if (
                x.player == b.active
                and set(x.attackers) <= ready
                and set(x.attackers) & came_in
                and in_game(b, x.defender)
            ):
                yield step, x.attackers
            attacked = step.after.refused is None


def _a_creature_that_phased_in_tapped_or_attacked(trace: Trace) -> bool:
    """R2017-haste: a creature that phased in as its controller's turn began
    paid {T} or attacked that turn."""
    for step, ids in _moves_of_phased_in_creatures(trace):
        after = [view(step.after, pid) for pid in ids]
        if step.after.refused is None and all(
            v is not None and (v.attacking or v.tapped) for v in after
        ):
            return True
    return False


@composite
def _turns_where_creatures_phase_in(draw: st.DrawFn, caps: Caps) -> Scenario:
    """R2017-haste scenarios: two players' creatures, at least one phased
    out; the turn passes to a player one phased out under (it phases in as
    their turn begins), and they and the others act."""
    caps = focus(caps, C.ACTIVATED_ABILITIES, C.COMBAT)
    setup = draw(setups(caps, min_permanents=1, max_permanents=2, permanent_kinds=("creature",)))
    if all(p.phased_out is None for p in setup.permanents):
        # Phase one out (creatures alone: nothing is attached to it).
        i = integer(draw, 0, len(setup.permanents) - 1)
        out = replace(
            setup.permanents[i], phased_out=PhasedOut("direct", setup.permanents[i].controller)
        )
        setup = replace(setup, permanents=(*setup.permanents[:i], out, *setup.permanents[i + 1 :]))
    unders = sorted({p.phased_out.under for p in setup.permanents if p.phased_out is not None})
    setup = replace(setup, active=(pick(draw, unders) - 1) % setup.players)
    turn = replace(setup, active=(setup.active + 1) % setup.players)
    kinds = (a.PassTurn, a.Activate, a.DeclareAttackers)
    actions = draw(action_lists(turn, caps, kinds=kinds, min_size=1, max_size=4))
    return Scenario(setup, (a.PassTurn(), *actions))


@rule_property(
    "R2017-haste",
    needs={C.ACTIVATED_ABILITIES},
    scenarios=_turns_where_creatures_phase_in,
    exercised=_a_creature_that_phased_in_tapped_or_attacked,
)
def creatures_that_phase_in_can_tap_and_attack(trace: Trace) -> None:
    """A creature that phased in as its controller's turn began can pay {T}
    and attack that turn: phasing in is not entering the battlefield."""
    for step, ids in _moves_of_phased_in_creatures(trace):
        move = "attack" if isinstance(step.action, a.DeclareAttackers) else "pay {T}"
        expect(
            step.after.refused is None,
            "R2017-haste",
            where(trace, step),
            f"{', '.join(ids)}, phased in this turn, can {move}",
            f"refused: {step.after.refused}",
        )
