"""What phased out "until S leaves the battlefield" phases in within the
event that moves S (610.4: "A second one-shot effect is created immediately
after the specified event"), not as a delayed trigger the next time a player
would receive priority: when a spell destroys S, the permanent is back
before the rest of that spell. The Destroy action's "draw a card" shows it:
a returning "if an opponent would draw a card, that player gains 2 life
instead" replaces the caster's draw."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.properties.effects import focus
from conformance.properties.history import (
    abilities,
    default_controllers,
    owners,
    until_sources,
    view,
)
from conformance.properties.players import draws
from conformance.properties.registry import expect, rule_property, where
from conformance.running import Step, Trace
from conformance.setup import (
    LIFE_REPLACEMENTS,
    Ability,
    ControlEffect,
    Permanent,
    PhasedOut,
    Setup,
)
from conformance.strategies import plans
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.players import new_id, with_changed, with_permanents

#: The replacements that make their controller draw when an opponent's life
#: changes (docs/vocabulary.md): with one, the caster may draw for another
#: reason than the spell.
_DRAWING_INSTEAD: tuple[Ability, ...] = ("gain_to_draw", "lose_to_draw")
#: Every replacement of draws or life (docs/vocabulary.md).
_REPLACEMENTS = frozenset((*LIFE_REPLACEMENTS, *_DRAWING_INSTEAD))


def _released_into_the_draw(trace: Trace) -> Iterator[tuple[Step, a.Destroy, str, int]]:
    """Each Destroy carried out whose target S left the battlefield, with
    each permanent X that waited for S (610.4), has "if an opponent would
    draw a card, that player gains 2 life instead" and is shown phased in
    after it under the player Q who controlled it from the start: an
    opponent of the caster, with no control effect on X that could have
    made the caster its controller for a moment (X then applied to the
    spell's draw whatever the engine shows after it). Left out: a caster
    who could draw because another player's life changed (a
    `_DRAWING_INSTEAD` replacement they own, control or may come to
    control). Yields the step, the Destroy, X and Q."""
    setup = trace.scenario.setup
    borrowed = {e.target for e in setup.effects if isinstance(e, ControlEffect)}
    waiting = until_sources(trace)
    for i, step in enumerate(trace.steps):
        x = step.action
        if isinstance(x, a.GainControl):
            borrowed.add(x.target)
        if not isinstance(x, a.Destroy) or step.after.refused is not None:
            continue
        b, c = view(step.before, x.target), view(step.after, x.target)
        left = b is not None and b.phased_in and (c is None or not c.on_battlefield)
        if not left or x.phased_out_in_response or _may_draw_instead(trace, step, x.caster):
            continue
        for pid, source in sorted(waiting[i].items()):
            back = view(step.after, pid)
            if source != x.target or back is None or not back.phased_in:
                continue
            holder = next((p.controller for p in setup.permanents if p.id == pid), None)
            if (
                "draw_to_life" in abilities(trace.scenario, pid)
                and pid not in borrowed
                and holder is not None
                and back.controller == holder != x.caster
            ):
                yield step, x, pid, holder


def _may_draw_instead(trace: Trace, step: Step, caster: int) -> bool:
    """Whether a permanent with a `_DRAWING_INSTEAD` replacement is, or
    could be during `step`, the caster's: they own it, it enters under them
    by default, or they control it before or after `step`."""
    scenario = trace.scenario
    owner, default = owners(scenario), default_controllers(scenario)
    for pid in owner:
        if not set(_DRAWING_INSTEAD) & set(abilities(scenario, pid)):
            continue
        shown = (view(obs, pid) for obs in (step.before, step.after))
        controllers = {v.controller for v in shown if v is not None}
        if caster in {owner[pid], default[pid], *controllers}:
            return True
    return False


def _released_during_the_spell(trace: Trace) -> bool:
    """610.4: a Destroy made the source S of a "phases out until S leaves
    the battlefield" leave, and the engine showed what waited for S, an
    opponent's "if an opponent would draw a card, that player gains 2 life
    instead", phased in after it (`_released_into_the_draw`)."""
    return any(True for _ in _released_into_the_draw(trace))


def _draw_replaced_by_a_waiter(draw: st.DrawFn, setup: Setup, caps: Caps) -> plans.Planned:
    """610.4: a permanent X of player Q's with "if an opponent would draw a
    card, that player gains 2 life instead" phases out until a permanent S
    leaves the battlefield (in the setup, or by S's controller's ability);
    then another player P casts Destroy ("destroy target permanent, draw a
    card") on S. X, a new enchantment or a phased-in permanent of Q's
    attached to nothing, is back as S leaves, before P's draw, which it
    replaces. S is a phased-in permanent attached to nothing, whoever's
    (P's, Q's or a third player's), or a new artifact of any player's.
    Sometimes there is another replacement (`_another_replacement`), or P
    first casts Teferi's Protection, so that their draw is replaced by
    nothing (R2017-replaced-by-life)."""
    setup = _without_replacements(setup)
    caster = integer(draw, 0, setup.players - 1)
    holder = (caster + 1 + integer(draw, 0, setup.players - 2)) % setup.players
    borrowed = {e.target for e in setup.effects if isinstance(e, ControlEffect)}
    free = [p for p in setup.permanents if p.phased_out is None and p.attached_to is None]
    # Not a token: in the older editions a phased-out token ceases to exist
    # (702.25k).
    xs = [p for p in free if p.controller == holder and p.id not in borrowed and not p.token]
    made = not xs or maybe(draw)
    if made:
        new = Permanent(new_id(setup), holder, holder, ("enchantment",))
        setup, xs = with_permanents(setup, new), [new]
    x = pick(draw, xs)
    sources = [p.id for p in free if p.id != x.id]
    if not sources or maybe(draw):
        player = integer(draw, 0, setup.players - 1)
        artifact = Permanent(new_id(setup), player, player, ("artifact",))
        setup, sources = with_permanents(setup, artifact), [artifact.id]
    source = pick(draw, sources)
    # A new X (nothing attached to it) may be set up phased out already.
    out = PhasedOut("direct", holder, until=source) if made and maybe(draw) else None
    waiter = replace(
        x, abilities=tuple(dict.fromkeys((*x.abilities, "draw_to_life"))), phased_out=out
    )
    setup = with_changed(setup, waiter)
    first: tuple[a.Action, ...] = ()
    if out is None:
        first = (a.PhaseOutUntil(setup.permanent(source).controller, source, x.id),)
    setup = _another_replacement(draw, setup, caster, holder)
    # Not with S the caster's: it would phase out too, and the Destroy fizzle.
    if set(caps) >= _PROTECTION and setup.permanent(source).controller != caster and maybe(draw):
        first += (a.TeferisProtection(caster),)
    return setup, (*first, a.Destroy(caster, source))


def _without_replacements(setup: Setup) -> Setup:
    """`setup` without the draw and life replacements its permanents drew:
    the plan adds its own, at most two. Two players each with both "if an
    opponent would draw a card, that player gains 2 life instead" and "if
    an opponent would gain life, you draw that many cards instead" make a
    loop that only 616.1f ends, which is not what 610.4 is about."""
    cleared = tuple(
        replace(p, abilities=tuple(x for x in p.abilities if x not in _REPLACEMENTS))
        for p in setup.permanents
    )
    return replace(setup, permanents=cleared)


def _another_replacement(draw: st.DrawFn, setup: Setup, caster: int, holder: int) -> Setup:
    """Half the time, `setup` with a new enchantment with another replacement
    of draws or life: the caster's own "if an opponent would draw a card,
    that player gains 2 life instead" (it doesn't apply to them), or Q's
    "if an opponent would gain life, you draw that many cards instead" (the
    caster's 2 life become Q's 2 cards, 614.1a). Not the caster's: with it,
    Q's gains become the caster's draws, which X makes the caster's gains
    (where the rules stop: the caster's own replacement doesn't apply to
    them), a chain phase.rs crashes on, unrelated to 610.4;
    `_released_into_the_draw` would leave that caster out anyway."""
    if not maybe(draw):
        return setup
    choices: list[tuple[int, Ability]] = [(caster, "draw_to_life"), (holder, "gain_to_draw")]
    player, ability = pick(draw, choices)
    made = Permanent(new_id(setup), player, player, ("enchantment",), abilities=(ability,))
    return with_permanents(setup, made)


#: What the property and its plan need (610.4; the Destroy's draw).
_NEEDS = (C.PHASE_OUT_UNTIL, C.DESTROY, C.TARGETING, C.LIFE_REPLACEMENT)
#: What the plan's Teferi's Protection needs, if the engine has it.
_PROTECTION = a.action_needs(a.TeferisProtection(0))


@rule_property(
    "610.4",
    needs=_NEEDS,
    scenarios=lambda caps: plans.planned_scenarios(
        # Several players: the caster, X's controller and S's may differ.
        focus(caps, *_NEEDS, C.MULTIPLAYER, C.TOKENS, C.TRIGGERS, C.PHASE_TRIGGERS, C.AURAS),
        _draw_replaced_by_a_waiter,
        kinds=(a.PassTurn, a.PhaseOutUntil, a.Destroy, a.PhaseOut),
        max_actions=3,
        max_permanents=3,
        plan_only=set(caps) & _PROTECTION,
        effects=False,
    ),
    exercised=_released_during_the_spell,
    reads=("life", "cards_drawn"),
)
def what_waited_is_back_before_the_rest_of_the_spell(trace: Trace) -> None:
    """610.4: what phased out "until S leaves the battlefield" phases in
    immediately after S leaves, so within the spell that destroyed S and
    before the rest of it: an opponent's "if an opponent would draw a card,
    that player gains 2 life instead" that waited for S replaces the Destroy
    caster's draw. The caster draws nothing (they gain 2 life, or another
    player draws instead, 614.1a, or nothing happens if their life can't
    change, R2017-replaced-by-life), whatever else replaces what."""
    for step, x, pid, holder in _released_into_the_draw(trace):
        expect(
            draws(step, x.caster) == 0,
            "610.4",
            f"{where(trace, step)}, player {x.caster}'s Destroy of {x.target}",
            f"no card drawn: {pid} (player {holder}'s, 'if an opponent would draw a card, "
            f"that player gains 2 life instead') phased in as {x.target} left, before the "
            "spell's draw",
            f"{draws(step, x.caster)} drawn",
        )
