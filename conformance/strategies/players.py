"""Strategies for the actions about players and life totals (Teferi's
Protection whole), and the plans that put a player under Teferi's
Protection and then do what its rulings are about (R2017-protection,
R2017-life-no-effect and the other life rulings)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability
from conformance.setup import Ability, Permanent, PhasedOut, Setup, SkipUntap
from conformance.strategies._draw import Caps, integer, maybe, pick, some

if TYPE_CHECKING:
    from conformance.strategies.plans import Planned
    from conformance.strategies.plays import Table


def draw_player_action(
    draw: st.DrawFn, table: Table, kind: type, player: int, others: list[int]
) -> a.Action | None:
    """One action of a kind of `a.PLAYER_ACTION_TYPES`, by `player`; its
    other players are drawn from `others` (the rest of the turn order)."""
    amount = integer(draw, 1, 3)
    if kind is a.TeferisProtection:
        return a.TeferisProtection(player)
    if kind is a.GainLife:
        return a.GainLife(player, amount)
    if kind is a.LoseLife:
        return a.LoseLife(player, amount)
    if kind is a.SetLife:
        return a.SetLife(player, integer(draw, 15, 25))
    if kind is a.PayLife:
        return a.PayLife(player, integer(draw, 0, 3))
    if kind is a.DamageOpponents:
        return a.DamageOpponents(player, amount, maybe(draw))
    if kind is a.OpponentsDiscard:
        return a.OpponentsDiscard(player)
    if not others:
        return None
    other = pick(draw, others)
    if kind is a.ExchangeLife:
        return a.ExchangeLife(player, other)
    if kind is a.GiveLife:
        return a.GiveLife(player, other, amount)
    if kind is a.DealDamage:
        return a.DealDamage(player, other, amount)
    if kind is a.EnchantPlayer:
        table.auras += 1
        return a.EnchantPlayer(player, f"a{table.auras}", other)
    assert kind is a.TapAndDamage, kind
    targets: list[str | int] = [*some(draw, table.ids, 2), *some(draw, others, 2)]
    responder = pick(draw, [None, *others]) if maybe(draw) else None
    return a.TapAndDamage(player, tuple(targets) or (other,), amount, responder)


def _players(draw: st.DrawFn, setup: Setup) -> tuple[int, int]:
    """The player who casts Teferi's Protection, and another."""
    p = integer(draw, 0, setup.players - 1)
    return p, (p + 1 + integer(draw, 0, setup.players - 2)) % setup.players


def with_permanents(setup: Setup, *made: Permanent) -> Setup:
    """`setup` with `made` added after its permanents."""
    return replace(setup, permanents=(*setup.permanents, *made))


def with_changed(setup: Setup, *changed: Permanent) -> Setup:
    """`setup` with each of `changed` in the place of its permanent of the
    same id."""
    by_id = {p.id: p for p in changed}
    return replace(setup, permanents=tuple(by_id.get(p.id, p) for p in setup.permanents))


def new_id(setup: Setup, k: int = 0) -> str:
    """The id of the (k+1)-th permanent added to `setup` (its ids are p1, p2, ...)."""
    return f"p{len(setup.permanents) + 1 + k}"


def with_a_permanent(setup: Setup, player: int) -> Setup:
    """`setup`, where `player` controls a phased-in permanent, so that
    Teferi's Protection visibly resolves (its phasing out)."""
    if any(p.controller == player and p.phased_out is None for p in setup.permanents):
        return setup
    return with_permanents(
        setup, Permanent(new_id(setup), owner=player, controller=player, power=1, toughness=1)
    )


def _with_ability(setup: Setup, player: int, ability: Ability) -> Setup:
    """`setup` with a phased-in enchantment of `player`'s with `ability`."""
    made = Permanent(new_id(setup), player, player, ("enchantment",), abilities=(ability,))
    return with_permanents(setup, made)


def life_spells_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-life-no-effect: a life spell changes a life total; then that
    player casts Teferi's Protection and casts life spells. With phase
    triggers, half the time the player also controls "whenever this phases
    out, you gain life": Teferi's Protection phases it out, and the trigger
    resolves after the spell (603.3), under the lock (608.2c). With damage
    to players, half the time one of the spells is the player's lifelink
    spell damaging each opponent: its life gain (702.15b) has no effect
    under the lock either."""
    p, _ = _players(draw, setup)
    spells: list[a.Action] = [
        a.GainLife(p, integer(draw, 1, 3)),
        a.LoseLife(p, integer(draw, 1, 3)),
    ]
    if Capability.PHASE_TRIGGERS in caps and maybe(draw):
        setup = _with_ability(setup, p, "phases_out")
    if Capability.PLAYER_DAMAGE in caps and maybe(draw):
        spells.append(a.DamageOpponents(p, integer(draw, 1, 3)))
    return with_a_permanent(setup, p), (
        pick(draw, spells),
        a.TeferisProtection(p),
        *some(draw, spells, 2),
        pick(draw, spells),
    )


def set_life_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-set-life: a player's life total is set; then under Teferi's
    Protection it is set to another number."""
    p, _ = _players(draw, setup)
    first, then = integer(draw, 10, 19), integer(draw, 21, 30)
    return with_a_permanent(setup, p), (
        a.SetLife(p, first),
        a.TeferisProtection(p),
        a.SetLife(p, pick(draw, [then, 20])),
    )


def exchange_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-exchange: two players exchange different life totals; then one
    is under Teferi's Protection and exchanges again."""
    p, o = _players(draw, setup)
    return with_a_permanent(setup, p), (
        a.LoseLife(o, integer(draw, 1, 3)),
        a.ExchangeLife(o, p),
        a.TeferisProtection(p),
        a.ExchangeLife(p, o),
    )


def pay_life_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-pay-life: a player pays life; then under Teferi's Protection
    tries to pay some, and 0."""
    p, _ = _players(draw, setup)
    again = [a.PayLife(p, integer(draw, 1, 3)), a.PayLife(p, 0)]
    return with_a_permanent(setup, p), (
        a.PayLife(p, integer(draw, 1, 3)),
        a.TeferisProtection(p),
        *([again[0], again[1]] if maybe(draw) else [again[1], again[0]]),
    )


def give_life_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-gain-life-cost: an opponent's spell is cast by having a player
    gain life; then that player is under Teferi's Protection."""
    p, o = _players(draw, setup)
    return with_a_permanent(setup, p), (
        a.GiveLife(o, p, integer(draw, 1, 3)),
        a.TeferisProtection(p),
        a.GiveLife(o, p, integer(draw, 1, 3)),
    )


def draw_to_life_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-replaced-by-life: an opponent controls "if an opponent would
    draw a card, that player gains 2 life instead"; a player's spell draws
    before and under Teferi's Protection."""
    p, o = _players(draw, setup)
    setup = _with_ability(with_a_permanent(setup, p), o, "draw_to_life")
    spells = [a.GainLife(p, integer(draw, 1, 3)), a.LoseLife(p, 1), a.PayLife(p, 0)]
    return setup, (
        pick(draw, spells),
        a.TeferisProtection(p),
        *some(draw, spells, 2),
        pick(draw, spells),
    )


#: The replacement abilities of draws and life, the capability each needs,
#: and a spell of the player it applies to that it replaces.
_REPLACED_BY: tuple[tuple[Ability, Capability, type[a.GainLife | a.LoseLife]], ...] = (
    ("draw_to_life", Capability.LIFE_REPLACEMENT, a.LoseLife),
    ("gain_to_draw", Capability.LIFE_REPLACEMENT, a.GainLife),
    ("lose_to_draw", Capability.LOSS_REPLACEMENT, a.LoseLife),
)


def replacement_phases_out(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26b, R2017-nonexistent: an opponent's replacement of draws or
    life applies to a player's spell; then the permanent with it phases out
    (a spell targeting it, or all its controller's permanents) and the
    player casts the spell again; then turns pass to that opponent's untap
    step, which phases it back in, and the spell once more."""
    allowed = [(ability, kind) for ability, need, kind in _REPLACED_BY if need in caps]
    ways = [w for w in (a.PhaseOut, a.PhaseOutAll) if a.action_needs(w) <= set(caps)]
    if not (allowed and ways):
        return setup, ()
    p, o = _players(draw, setup)
    ability, kind = pick(draw, allowed)
    setup = _with_ability(setup, o, ability)
    source = setup.permanents[-1].id
    spell = kind(p, integer(draw, 1, 3))
    out = a.PhaseOut(o, (source,)) if pick(draw, ways) is a.PhaseOut else a.PhaseOutAll(o)
    back = (a.PassTurn(),) * setup.turns_until(o)
    return setup, (spell, out, spell, *back, spell)


def gain_to_draw_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-life-replacement: an opponent controls "if an opponent would
    gain life, you draw that many cards instead"; a player gains life
    before and under Teferi's Protection."""
    p, o = _players(draw, setup)
    setup = _with_ability(with_a_permanent(setup, p), o, "gain_to_draw")
    gain = a.GainLife(p, integer(draw, 1, 3))
    return setup, (gain, a.TeferisProtection(p), pick(draw, [gain, a.SetLife(p, 25)]))


def lose_to_draw_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-life-replacement, its loss half: an opponent controls "if an
    opponent would lose life, you draw that many cards instead"; a player
    loses life before and under Teferi's Protection."""
    p, o = _players(draw, setup)
    setup = _with_ability(with_a_permanent(setup, p), o, "lose_to_draw")
    lose = a.LoseLife(p, integer(draw, 1, 3))
    return setup, (lose, a.TeferisProtection(p), pick(draw, [lose, a.SetLife(p, 15)]))


def damage_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-protection, R2017-unpreventable: a lifelink spell damages each
    opponent of a player, before and after one of them cast Teferi's
    Protection (`_lasting`), its damage preventable or not."""
    p, o = _players(draw, setup)
    unpreventable = maybe(draw)
    blast = a.DamageOpponents(o, integer(draw, 1, 3), unpreventable)
    return with_a_permanent(setup, p), (blast, *_lasting(draw, p), blast)


def _lasting(draw: st.DrawFn, p: int) -> tuple[a.Action, ...]:
    """Player `p` casts Teferi's Protection; sometimes the turn passes
    then, which it outlasts unless the next turn is `p`'s: the protection
    lasts until their next turn (R2017-protection), not until end of turn."""
    protection = a.TeferisProtection(p)
    return (protection, a.PassTurn()) if maybe(draw) else (protection,)


def infect_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-unpreventable: a lifelink spell with infect damages each
    opponent of a player, before and after one of them cast Teferi's
    Protection; after, its damage can't be prevented."""
    p, o = _players(draw, setup)
    amount = integer(draw, 1, 3)
    first = a.DamageOpponents(o, amount, maybe(draw), infect=True)
    return with_a_permanent(setup, p), (
        first,
        a.TeferisProtection(p),
        a.DamageOpponents(o, amount, unpreventable=True, infect=True),
    )


def target_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-protection: spells target a player, then that player casts
    Teferi's Protection (`_lasting`) and the same spells target them again."""
    p, o = _players(draw, setup)
    spells: list[a.Action] = [
        a.DealDamage(o, p, integer(draw, 1, 3)),
        a.ExchangeLife(o, p),
        a.EnchantPlayer(o, "a1", p),
        a.TapAndDamage(o, (p,), integer(draw, 1, 3)),
    ]
    first = pick(draw, spells)
    again = pick(draw, spells)
    if isinstance(again, a.EnchantPlayer):
        again = replace(again, aura="a2")
    return with_a_permanent(setup, p), (first, *_lasting(draw, p), again)


def aura_on_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-protection, 704.5m: an Aura another player controls is attached
    to a player, who casts Teferi's Protection. Half the time the Aura is
    phased out (directly, under its controller) as the active player casts
    it, and the turns pass to its controller's untap step, which comes
    before the caster's next turn: it phases in while they still have
    protection from everything, so it can't be attached to them
    (R2017-auras, 702.26i) and goes to the graveyard (704.5m)."""
    phasing_in = maybe(draw)
    if phasing_in:
        p = setup.active
        o = (p + 1 + integer(draw, 0, setup.players - 2)) % setup.players
    else:
        p, o = _players(draw, setup)
    setup = with_a_permanent(setup, p)
    aura = Permanent(new_id(setup), o, o, ("enchantment",), attachment="aura", attached_to=p)
    if not phasing_in:
        return with_permanents(setup, aura), (a.TeferisProtection(p),)
    aura = replace(aura, phased_out=PhasedOut("direct", o))
    turns = (a.PassTurn(),) * setup.turns_until(o)
    return with_permanents(setup, aura), (a.TeferisProtection(p), *turns)


def attack_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-nothing-else: the active player attacks a player with
    protection from everything, and damages each opponent."""
    o = setup.active
    p = (o + 1 + integer(draw, 0, setup.players - 2)) % setup.players
    setup = with_a_permanent(setup, p)
    attacker = Permanent(new_id(setup), o, o, power=integer(draw, 1, 3), toughness=1)
    setup = with_permanents(setup, attacker)
    then = pick(draw, [a.PassTurn(), a.DamageOpponents(o, 1)])
    return setup, (a.TeferisProtection(p), a.DeclareAttackers(o, (attacker.id,), p), then)


def discard_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-nothing-else: an opponent of a player makes each opponent
    discard a card, before and after that player cast Teferi's Protection."""
    p, o = _players(draw, setup)
    return with_a_permanent(setup, p), (
        a.OpponentsDiscard(o),
        a.TeferisProtection(p),
        a.OpponentsDiscard(o),
    )


def borrowed_from_protected(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-nothing-else: a player owns a creature another player controls;
    the owner casts Teferi's Protection (`_lasting`), which phases out only
    what they control, and a player's spell targets the creature: destroy
    it, or tap it (a TapAndDamage with no player to damage)."""
    p, o = _players(draw, setup)
    setup = with_a_permanent(setup, p)
    borrowed = Permanent(new_id(setup), p, o, power=2, toughness=2)
    caster = integer(draw, 0, setup.players - 1)
    spells: list[a.Action] = [
        a.Destroy(caster, borrowed.id),
        a.TapAndDamage(caster, (borrowed.id,), integer(draw, 1, 3)),
    ]
    return with_permanents(setup, borrowed), (*_lasting(draw, p), pick(draw, spells))


def respond_with_protection(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-targets, R2017-protection-targets: a spell targets a player
    and, or, their permanents, and other players and permanents; that player
    casts Teferi's Protection in response. Half the time (with Auras or
    Equipment) the spell also targets an attachment another player
    controls on a permanent of theirs (`_foreign_attachment`): it phases
    out with its host, indirectly (702.26g), an illegal target too."""
    r, c = _players(draw, setup)
    setup = with_a_permanent(setup, r)
    theirs = [p.id for p in setup.permanents if p.controller == r and p.phased_out is None]
    others = [p.id for p in setup.permanents if p.controller != r and p.phased_out is None]
    players = [q for q in range(setup.players) if q != r]
    targets: list[str | int] = [pick(draw, [r, pick(draw, theirs)])]
    if maybe(draw):
        setup, attachment = _foreign_attachment(draw, setup, caps, r)
        targets = [*attachment, *targets]
    targets += [*some(draw, theirs, 1), *some(draw, others, 1), *some(draw, players, 2)]
    unique = tuple(dict.fromkeys(targets))
    return setup, (a.TapAndDamage(c, unique, integer(draw, 1, 3), r),)


def _foreign_attachment(
    draw: st.DrawFn, setup: Setup, caps: Caps, player: int
) -> tuple[Setup, tuple[str, ...]]:
    """`setup` with an Aura, or an Equipment (on a creature), that another
    player than `player` controls, attached to a phased-in permanent
    `player` controls; and its id (none without Auras or Equipment)."""
    theirs = [p for p in setup.permanents if p.controller == player and p.phased_out is None]
    creatures = [p for p in theirs if p.is_creature]
    kinds = [
        (kind, types, hosts)
        for kind, types, need, hosts in (
            ("aura", ("enchantment",), Capability.AURAS, theirs),
            ("equipment", ("artifact",), Capability.EQUIPMENT, creatures),
        )
        if need in caps and hosts
    ]
    if not kinds:
        return setup, ()
    kind, types, hosts = pick(draw, kinds)
    holder = pick(draw, [q for q in range(setup.players) if q != player])
    made = Permanent(
        new_id(setup), holder, holder, types, attachment=kind, attached_to=pick(draw, hosts).id
    )
    return with_permanents(setup, made), (made.id,)


def skipped_untap_locked(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """R2017-skip-untap: a player who will skip their untap step casts
    Teferi's Protection; turns pass to theirs; then their life changes and
    they are targeted; then turns pass to their next turn."""
    p, o = _players(draw, setup)
    setup = with_a_permanent(setup, p)
    setup = replace(setup, effects=(*setup.effects, SkipUntap(p)))
    turns = setup.turns_until(p)
    then = [a.GainLife(p, integer(draw, 1, 3)), a.DealDamage(o, p, integer(draw, 1, 3))]
    later = some(draw, then, 2) or then[:1]
    # Then to their next turn, whose untap step phases their permanents in.
    back = (a.PassTurn(),) * setup.players
    return setup, (a.TeferisProtection(p), *(a.PassTurn(),) * turns, *later, *back)
