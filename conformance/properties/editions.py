"""Where the older editions of the phasing rules differ from today's: a
phased-out token ceases to exist (CR 702.25k before 2017; Mirage 217.8d),
and a permanent that phased in plays as if it had haste (Mirage 502.15m).
These properties cite only their editions' rule IDs, so they run only there
(`conformance.editions.rules_in`); today's counterparts are
`phased_out_tokens_stay_and_phase_in` (R2017-tokens) and
`creatures_that_phase_in_can_tap_and_attack` (R2017-haste). Mirage's
damage and legends are in `conformance.properties.mirage`."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.history import view
from conformance.properties.leaving import token_ids
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.setup import Setup
from conformance.strategies import Caps, scenarios
from conformance.strategies._draw import pick
from conformance.strategies.plans import Planned, planned_scenarios
from conformance.strategies.players import with_changed


def _priority_given(step: Step) -> bool:
    """704.3: a player received priority after this step's action (which
    state-based actions need): it was played, and is not the concession of a
    player who did not hold priority (800.4a)."""
    x = step.action
    if step.after.refused is not None:
        return False
    return not (isinstance(x, a.Concede) and x.player != step.before.active)


def _a_phased_out_token_ceased(trace: Trace) -> bool:
    """702.25k, 217.8d: a token phased out and, in the same action, ceased to
    exist (not by a concession: a leaving owner takes it anyway)."""
    tokens = token_ids(trace)
    for step in trace.steps:
        if not _priority_given(step) or isinstance(step.action, a.Concede):
            continue
        for pid in tokens:
            c = view(step.after, pid)
            if step.after.events_of("phased_out", pid) and c is not None and c.zone == "none":
                return True
    return False


def _tokens_cease(trace: Trace, rule: str, attached_rule: str) -> None:
    """No token is left phased out once a player receives priority (`rule`);
    what phased out indirectly with a token that ceased to exist never phases
    in again (`attached_rule`)."""
    tokens = token_ids(trace)
    gone: set[str] = set()
    for step in trace.steps:
        at = where(trace, step)
        for c in step.after.permanents:
            b = view(step.before, c.id)
            host = None if b is None else b.attached_to
            if (
                b is not None
                and b.phased_out
                and b.cause == "indirect"
                and host in gone
                and c.on_battlefield
            ):
                expect(
                    c.phased_out,
                    attached_rule,
                    f"{at}, {c.id} (phased out with token {host})",
                    "it stays phased out for the rest of the game",
                    "it phased in",
                )
        if not _priority_given(step):
            continue
        for c in step.after.phased_out_zone:
            if c.id in tokens:
                expect(False, rule, f"{at}, token {c.id}", "it ceased to exist", "phased out")
        gone |= {pid for pid in tokens if (v := view(step.after, pid)) and v.zone == "none"}


def _token_scenarios(caps: Caps) -> st.SearchStrategy[Scenario]:
    """As for R2017-tokens: tokens phase out at untap steps and by spells."""
    return scenarios(
        set(caps) - {C.SKIP_UNTAP},
        kinds=(a.PassTurn, a.PassTurn, a.CreateToken, a.PhaseOut),
        min_actions=4,
        min_permanents=1,
    )


@rule_property(
    "702.25k",
    "702.25f",
    needs={C.TOKENS},
    scenarios=_token_scenarios,
    exercised=_a_phased_out_token_ceased,
    reads={"events"},
)
def phased_out_tokens_cease_to_exist(trace: Trace) -> None:
    """Before 2017, a phased-out token ceases to exist as a state-based
    action (702.25k), so none is left phased out once a player receives
    priority; what phased out indirectly with it phases in only with it
    (702.25f), so never again."""
    _tokens_cease(trace, "702.25k", "702.25f")


@rule_property(
    "217.8d",
    needs={C.TOKENS},
    scenarios=_token_scenarios,
    exercised=_a_phased_out_token_ceased,
    reads={"events"},
)
def tokens_in_the_phased_out_zone_cease_to_exist(trace: Trace) -> None:
    """Mirage 217.8d: tokens in the phased-out zone cease to exist (a
    state-based effect), and a local enchantment on such a token stays in the
    phased-out zone for the rest of the game."""
    _tokens_cease(trace, "217.8d", "217.8d")


def _sick_creature_phases_in_then_attacks(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """502.15m: a creature that came under its controller's control this turn
    (summoning sick, 302.6; untapped, and its controller made the active
    player) phases out until another permanent of theirs leaves, that
    permanent is destroyed (the creature phases in, 610.4), and it attacks.
    (A token would not do: in the Mirage rules a phased-out token ceases to
    exist, 217.8d.)"""
    free = [p for p in setup.permanents if p.phased_out is None and p.attached_to is None]
    pairs = [
        (x, s.id)
        for x in free
        if x.is_creature
        for s in free
        if s.id != x.id and s.controller == x.controller
    ]
    if not pairs:
        return setup, ()
    x, source = pick(draw, pairs)
    player = x.controller
    sick = replace(x, sick=True, tapped=False)
    defender = pick(draw, [q for q in range(setup.players) if q != player])
    return replace(with_changed(setup, sick), active=player), (
        a.PhaseOutUntil(player, source, x.id),
        a.Destroy(player, source),
        a.DeclareAttackers(player, (x.id,), defender),
    )


def _hasty(trace: Trace, i: int, pid: str, player: int) -> bool:
    """502.15m: `pid` phased in before step `i` and has been `player`'s in
    every observation since."""
    for k in range(i - 1, -1, -1):
        v = view(trace.steps[k].after, pid)
        if v is None or not v.on_battlefield or v.controller != player:
            return False
        if trace.steps[k].after.events_of("phased_in", pid):
            return True
    return False


def _attacks(trace: Trace) -> list[tuple[int, Step, a.DeclareAttackers]]:
    """The first DeclareAttackers of each turn (a second one is refused for
    that alone), with their step index."""
    found, turns = [], set()
    for i, step in enumerate(trace.steps):
        x = step.action
        if isinstance(x, a.DeclareAttackers) and step.before.turn not in turns:
            found.append((i, step, x))
            if step.after.refused is None:
                turns.add(step.before.turn)
    return found


def _can_attack_but_for_sickness(step: Step, x: a.DeclareAttackers) -> bool:
    """508.1: the attack is legal but for summoning sickness (302.6)."""
    b = step.before
    defender = next((p for p in b.players if p.index == x.defender), None)
    if x.player != b.active or defender is None or not defender.in_game or x.defender == x.player:
        return False
    if not x.attackers or len(set(x.attackers)) != len(x.attackers):
        return False
    for pid in x.attackers:
        v = view(b, pid)
        if v is None or not v.phased_in or v.tapped or v.power is None or v.controller != x.player:
            return False
    return True


def _sick_this_turn(trace: Trace, i: int, pid: str) -> bool:
    """302.6: `pid` was summoning sick in step `i`'s turn before it phased in:
    set up sick in the setup's turn, or entered the battlefield this turn."""
    turn = trace.steps[i].before.turn
    setup = {p.id: p for p in trace.scenario.setup.permanents}
    if pid in setup and setup[pid].sick and turn == trace.scenario.setup.turn:
        return True
    return any(
        s.before.turn == turn
        and any(e.detail.endswith("->battlefield") for e in s.after.events_of("zone_change", pid))
        for s in trace.steps[:i]
    )


def _a_sick_creature_attacked_after_phasing_in(trace: Trace) -> bool:
    """502.15m: a creature that was summoning sick this turn phased in and
    then attacked, accepted: without 502.15m it could not have."""
    for i, step, x in _attacks(trace):
        if step.after.refused is None and any(
            _sick_this_turn(trace, i, pid) and _hasty(trace, i, pid, x.player)
            for pid in x.attackers
        ):
            return True
    return False


@rule_property(
    "502.15m",
    needs={C.PHASE_OUT_UNTIL, C.DESTROY, C.COMBAT},
    scenarios=lambda caps: planned_scenarios(
        caps,
        _sick_creature_phases_in_then_attacks,
        kinds=(a.PassTurn, a.DeclareAttackers),
        min_permanents=3,
        permanent_kinds=("creature", "creature", "artifact"),
    ),
    exercised=_a_sick_creature_attacked_after_phasing_in,
    reads={"events"},
)
def phased_in_permanents_attack_as_if_hasty(trace: Trace) -> None:
    """A permanent that phased in can attack as if it had haste, while it
    stays under the same controller (Mirage 502.15m): an attack that would be
    legal but for summoning sickness, by creatures that all phased in under
    the attacker and stayed theirs since, is not refused."""
    for i, step, x in _attacks(trace):
        if step.after.refused is None or not _can_attack_but_for_sickness(step, x):
            continue
        if all(_hasty(trace, i, pid, x.player) for pid in x.attackers):
            expect(
                False,
                "502.15m",
                where(trace, step),
                f"{', '.join(x.attackers)} attack as if they had haste",
                f"the attack refused: {step.after.refused}",
            )
