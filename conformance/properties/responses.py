"""Properties of a spell whose targets become illegal as Teferi's
Protection resolves in response: its caster's permanents phase out
(R2017-targets) and the player gains protection (R2017-protection-targets);
with every target illegal nothing happens, else the spell does what it can
and its other effects happen (608.2b). And of the card's duration: it ends
as its caster's next turn begins, untap step skipped or not
(R2017-skip-untap)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.observation import Observation
from conformance.properties.effects import focus, skipped_untap_steps
from conformance.properties.history import view, was_out_came_in
from conformance.properties.players import (
    draws,
    free_through,
    life,
    life_change,
    locked_through,
    played,
    protected,
    replaced_around,
    shown_resolving,
)
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.scenario import Scenario
from conformance.strategies import plans, players

_RESPONSE = (C.PLAYER_PROTECTION, C.LIFE_LOCK, C.PHASE_OUT_ALL, C.MULTI_TARGET, C.PLAYER_DAMAGE)
_NEEDS = (*_RESPONSE, C.TARGETING)


@dataclass(frozen=True)
class Response:
    """A TapAndDamage carried out with Teferi's Protection cast in response
    by `responder`: its targets still legal as it resolves and not."""

    step: Step
    spell: a.TapAndDamage
    responder: int
    legal: tuple[str | int, ...]
    illegal: tuple[str | int, ...]


def _gone_with(obs: Observation, responder: int) -> set[str]:
    """What Teferi's Protection cast by `responder` takes from the
    battlefield as it resolves, from the position `obs` (phased in there):
    the permanents they control phase out (directly), whatever is attached
    to those phases out with them, indirectly, whoever controls it
    (702.26g), and an Aura on the responder goes to the graveyard, as
    Auras can't be attached to them (R2017-protection, 704.5m), and what
    is attached to it falls off with it."""
    shown = [p for p in obs.permanents if p.phased_in]
    gone = {p.id for p in shown if p.controller == responder or p.attached_to == responder}
    grown = True
    while grown:
        more = {p.id for p in shown if p.attached_to in gone} - gone
        gone |= more
        grown = bool(more)
    return gone


def _responses(trace: Trace) -> Iterator[Response]:
    """608.2b: what Teferi's Protection takes from the battlefield
    (`_gone_with`: phased in as the spell was cast, so it phases out or
    goes) and the responder are illegal as it resolves (R2017-targets,
    R2017-protection-targets)."""
    shield = protected(trace)
    for i, step, x in played(trace, a.TapAndDamage):
        r = x.protected_in_response
        if r is None or r not in shield[i + 1] or r in shield[i]:
            continue
        gone = _gone_with(step.before, r)
        illegal = tuple(t for t in x.targets if t == r or t in gone)
        legal = tuple(t for t in x.targets if t not in illegal)
        yield Response(step, x, r, legal, illegal)


def _check(trace: Trace, rule: str, about: Callable[[Response], bool]) -> None:
    for res in _responses(trace):
        if not about(res):
            continue
        step, x = res.step, res.spell
        at = f"{where(trace, step)}, targets {', '.join(map(str, x.targets))}"
        for t in res.illegal:
            if not isinstance(t, str):
                continue
            b, v = view(step.before, t), view(step.after, t)
            if b is not None and v is not None and v.on_battlefield:
                expect(
                    v.tapped == b.tapped,
                    rule,
                    at,
                    f"{t} not tapped: an illegal target, phased out as player "
                    f"{res.responder}'s Teferi's Protection resolved (608.2b, 702.26g)",
                    "tapped" if v.tapped else "untapped",
                )
        if not res.legal:
            expect(
                draws(step, x.caster) == 0,
                rule,
                at,
                "the spell doesn't resolve: every target is illegal, no card drawn",
                f"player {x.caster} drew {draws(step, x.caster)}",
            )
            continue
        if not replaced_around(trace, step, "draw_to_life", x.caster):
            expect(
                draws(step, x.caster) == 1,
                rule,
                at,
                "its other effects happen: a card drawn, as a target is still legal",
                f"player {x.caster} drew {draws(step, x.caster)}",
            )
        for t in res.legal:
            if isinstance(t, str):
                v = view(step.after, t)
                expect(
                    v is not None and v.tapped, rule, at, f"{t} tapped (a legal target)", "untapped"
                )
            elif free_through(trace, trace.steps.index(step), t):
                expect(
                    life_change(step, t) == -x.amount,
                    rule,
                    at,
                    f"player {t} dealt {x.amount} damage (a legal target)",
                    f"life {life(step.before, t)} -> {life(step.after, t)}",
                )


def _did_what_it_could(trace: Trace, about: Callable[[Response], bool]) -> bool:
    return any(
        about(res)
        and res.legal
        and draws(res.step, res.spell.caster) == 1
        and shown_resolving(trace, res.responder)
        for res in _responses(trace)
    )


def _permanent_out(res: Response) -> bool:
    return any(isinstance(t, str) for t in res.illegal)


def _player_protected(res: Response) -> bool:
    return res.responder in res.illegal


def _phased_out_target_exercised(trace: Trace) -> bool:
    """R2017-targets: a spell with a target that phased out in response (its
    controller's Teferi's Protection, shown resolving) and another target
    still legal resolved, its card drawn."""
    return _did_what_it_could(trace, _permanent_out)


def _scenarios(caps: Collection[C]) -> st.SearchStrategy[Scenario]:
    """A TapAndDamage answered by Teferi's Protection, from positions of a
    few phased-in permanents; the plan may add an attachment another player
    controls on the responder's permanent, with the engine's Auras or
    Equipment."""
    return plans.planned_scenarios(
        focus(caps, *_NEEDS),
        players.respond_with_protection,
        plan_only=focus(caps, C.AURAS, C.EQUIPMENT),
        kinds=(a.PassTurn,),
        max_actions=1,
        min_permanents=1,
        max_permanents=3,
        phased_out=False,
        effects=False,
    )


@rule_property(
    "R2017-targets",
    needs=_NEEDS,
    scenarios=_scenarios,
    exercised=_phased_out_target_exercised,
    reads=("life", "cards_drawn"),
)
def spell_whose_target_phased_out_does_what_it_can(trace: Trace) -> None:
    """R2017-targets: a permanent that phases out is an illegal target as
    the spell resolves; with all targets illegal the spell does nothing,
    else it does what it can to the legal ones and its other effects
    happen (608.2b)."""
    _check(trace, "R2017-targets", _permanent_out)


def _protected_target_exercised(trace: Trace) -> bool:
    """R2017-protection-targets: a spell targeting a player who gained
    protection in response (their Teferi's Protection, shown resolving),
    with another target still legal, resolved, its card drawn."""
    return _did_what_it_could(trace, _player_protected)


@rule_property(
    "R2017-protection-targets",
    needs=_NEEDS,
    scenarios=_scenarios,
    exercised=_protected_target_exercised,
    reads=("life", "cards_drawn"),
)
def spell_targeting_a_player_who_gains_protection_does_what_it_can(trace: Trace) -> None:
    """R2017-protection-targets: a player who gains protection from
    everything is an illegal target of a spell already cast; with all
    targets illegal it does nothing, else what it can and its other effects
    (608.2b)."""
    _check(trace, "R2017-protection-targets", _player_protected)


def _skipped_starts(trace: Trace) -> dict[int, int]:
    """The PassTurn steps (by index) in which a player's Teferi's Protection
    ended with their turn beginning, its untap step skipped
    (R2017-skip-untap), and that player."""
    shield, skipped = protected(trace), skipped_untap_steps(trace)
    starts = {}
    for i, step in enumerate(trace.steps):
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            p = step.after.active
            if i in skipped and p in shield[i] and p not in shield[i + 1]:
                starts[i] = p
    return starts


def _after_skipped(trace: Trace) -> Iterator[tuple[int, Step, int]]:
    """Each step after a player's Teferi's Protection ended with their turn
    beginning in a skipped untap step (`_skipped_starts`), in that turn: the
    step's index, and the player."""
    starts = _skipped_starts(trace)
    ended: int | None = None
    for i, step in enumerate(trace.steps):
        if isinstance(step.action, a.PassTurn) and step.after.refused is None:
            ended = starts.get(i)
            continue
        if ended is not None:
            yield i, step, ended


def _changed_after_skip(trace: Trace) -> bool:
    """R2017-skip-untap: the engine showed a player's Teferi's Protection
    resolve; their turn began with a skipped untap step, their permanents
    still phased out; then their life total changed; and what phased out
    phased in at their next real untap step."""
    return any(
        life_change(step, p)
        and shown_resolving(trace, p)
        and _still_out(trace, p, step)
        and _came_back(trace, p)
        for _, step, p in _after_skipped(trace)
    )


def _teferi_phased(trace: Trace, player: int) -> set[str]:
    """What phased out as `player`'s Teferi's Protection resolved."""
    return {
        p.id
        for s in trace.steps
        if isinstance(s.action, a.TeferisProtection) and s.action.player == player
        for p in s.after.permanents
        if p.phased_out and (b := view(s.before, p.id)) is not None and b.phased_in
    }


def _still_out(trace: Trace, player: int, step: Step) -> bool:
    """Something that phased out with `player`'s Teferi's Protection is still out."""
    out = _teferi_phased(trace, player)
    return any((v := view(step.before, pid)) is not None and v.phased_out for pid in out)


def _came_back(trace: Trace, player: int) -> bool:
    """Something that phased out with `player`'s Teferi's Protection phased
    in at one of their untap steps (702.26a)."""
    out = _teferi_phased(trace, player)
    return any(
        isinstance(s.action, a.PassTurn) and s.after.active == player and was_out_came_in(s, pid)
        for s in trace.steps
        for pid in out
    )


@rule_property(
    "R2017-skip-untap",
    needs=(*_NEEDS, C.SKIP_UNTAP, C.LIFE_SPELLS),
    scenarios=lambda caps: plans.planned_scenarios(
        focus(caps, *_NEEDS, C.SKIP_UNTAP, C.LIFE_SPELLS),
        players.skipped_untap_locked,
        kinds=(a.PassTurn, a.GainLife, a.DealDamage),
        max_actions=1,
        max_permanents=2,
        phased_out=False,
        effects=False,
    ),
    exercised=_changed_after_skip,
    reads=("life",),
)
def protection_ends_as_your_turn_begins(trace: Trace) -> None:
    """R2017-skip-untap: Teferi's Protection lasts until its caster's next
    turn (611.2a): if that turn's untap step is skipped, their phased-out
    permanents wait for a real untap step, but they no longer have
    protection from everything and their life total can change again."""
    for i, p in _skipped_starts(trace).items():
        step = trace.steps[i]
        for pid in sorted(_teferi_phased(trace, p)):
            b, c = view(step.before, pid), view(step.after, pid)
            if b is None or c is None or not (b.on_battlefield and c.on_battlefield):
                continue
            expect(
                not b.phased_out or c.phased_out,
                "R2017-skip-untap",
                f"{where(trace, step)}, {pid} (player {p}'s untap step skipped)",
                "stays phased out until an untap step they have",
                "phased in",
            )
    for i, step, p in _after_skipped(trace):
        x = step.action
        at = f"{where(trace, step)}, player {p} (their turn began, its untap step skipped)"
        if locked_through(trace, i, p) or replaced_around(trace, step, "gain_to_draw", p):
            continue
        if isinstance(x, a.GainLife) and x.player == p and step.after.refused is None:
            expect(
                life_change(step, p) == x.amount,
                "R2017-skip-untap",
                at,
                f"gains {x.amount} life: their life total can change again",
                f"life {life(step.before, p)} -> {life(step.after, p)}",
            )
        if isinstance(x, a.DealDamage) and x.target == p:
            expect(
                step.after.refused is None and life_change(step, p) == -x.amount,
                "R2017-skip-untap",
                at,
                f"dealt {x.amount} damage: they no longer have protection from everything",
                f"refused: {step.after.refused}"
                if step.after.refused
                else f"life {life(step.before, p)} -> {life(step.after, p)}",
            )
