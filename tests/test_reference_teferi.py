"""The reference engine on Teferi's Protection's rulings about players and
life totals (2017-08-25), one explicit scenario each: the oracle must be
right on these before it judges anyone else; and a property judging one of
them on its scenario."""

from __future__ import annotations

import pytest

from adapters.mutants import mutant_engine
from adapters.reference import ReferenceEngine
from conformance import actions as a
from conformance.observation import Observation
from conformance.properties import REGISTRY, Violation
from conformance.running import play as run
from conformance.scenario import Scenario
from conformance.setup import DRAW_LIFE, OPENING_HAND, Permanent, Setup, SkipUntap


def play(setup: Setup, *actions: a.Action) -> list[Observation]:
    game = ReferenceEngine().start(setup)
    return [game.observe(), *(game.perform(x) for x in actions)]


BEAR = Permanent("p1", power=2, toughness=2)


def lives(obs: Observation) -> list[int]:
    return [p.life for p in obs.players]


def test_life_spells_resolve_and_change_nothing() -> None:
    """R2017-life-no-effect, R2017-set-life."""
    obs = play(
        Setup(permanents=(BEAR,)),
        a.TeferisProtection(0),
        a.GainLife(0, 3),
        a.LoseLife(0, 2),
        a.SetLife(0, 5),
    )
    assert [lives(o)[0] for o in obs] == [20] * 5
    assert [o.players[0].cards_drawn for o in obs] == [0, 0, 1, 2, 3]
    assert obs[1].permanent("p1").phased_out


def test_exchange_and_life_costs() -> None:
    """R2017-exchange, R2017-pay-life (0 life can be paid), R2017-gain-life-cost."""
    obs = play(
        Setup(permanents=(BEAR,)),
        a.LoseLife(1, 3),
        a.TeferisProtection(0),
        a.ExchangeLife(0, 1),
        a.PayLife(0, 2),
        a.PayLife(0, 0),
        a.GiveLife(1, 0, 3),
    )
    assert lives(obs[3]) == [20, 17]
    assert [o.refused is None for o in obs[4:]] == [False, True, False]


def test_an_exchange_is_a_gain_and_a_loss_replacements_modify() -> None:
    """701.12c: exchanging life totals, each player gains or loses the
    difference, and "if an opponent would gain life, you draw that many
    cards instead" replaces the gain: player 0 draws 5 instead of player 1
    gaining them, and loses 5 all the same."""
    into_cards = Permanent("g", 0, 0, ("enchantment",), abilities=("gain_to_draw",))
    obs = play(Setup(permanents=(into_cards,)), a.LoseLife(1, 5), a.ExchangeLife(1, 0))
    assert lives(obs[-1]) == [15, 15]
    assert [p.cards_drawn for p in obs[-1].players] == [5, 2]
    plain = play(Setup(), a.LoseLife(1, 5), a.ExchangeLife(1, 0))
    assert lives(plain[-1]) == [15, 20]


def test_replacements_of_and_by_life() -> None:
    """R2017-replaced-by-life: the draw is replaced by nothing;
    R2017-life-replacement: gaining life can't be replaced."""
    into_life = Permanent("p2", 1, 1, ("enchantment",), abilities=("draw_to_life",))
    before = play(Setup(permanents=(BEAR, into_life)), a.GainLife(0, 1))[-1]
    assert (lives(before)[0], before.players[0].cards_drawn) == (21 + DRAW_LIFE, 0)
    locked = play(Setup(permanents=(BEAR, into_life)), a.TeferisProtection(0), a.GainLife(0, 1))
    assert (lives(locked[-1])[0], locked[-1].players[0].cards_drawn) == (20, 0)
    into_cards = Permanent("p2", 1, 1, ("enchantment",), abilities=("gain_to_draw",))
    free = play(Setup(permanents=(BEAR, into_cards)), a.GainLife(0, 3))[-1]
    assert free.players[1].cards_drawn == 3
    locked = play(Setup(permanents=(BEAR, into_cards)), a.TeferisProtection(0), a.GainLife(0, 3))
    assert locked[-1].players[1].cards_drawn == 0


def test_protection_from_everything() -> None:
    """R2017-protection: damage prevented (no lifelink gain), unpreventable
    damage dealt (R2017-unpreventable), no targeting, no Aura; attacks go on
    (R2017-nothing-else)."""
    curse = Permanent("p2", 1, 1, ("enchantment",), attachment="aura", attached_to=0)
    raider = Permanent("p3", 1, 1, power=3, toughness=3)
    obs = play(
        Setup(active=1, permanents=(BEAR, curse, raider)),
        a.TeferisProtection(0),
        a.DamageOpponents(1, 2),
        a.DamageOpponents(1, 2, unpreventable=True),
        a.DealDamage(1, 0, 2),
        a.EnchantPlayer(1, "a1", 0),
        a.DeclareAttackers(1, ("p3",), 0),
        a.PassTurn(),
    )
    assert obs[1].permanent("p2").zone == "graveyard"
    assert [lives(o) for o in obs[2:4]] == [[20, 20], [20, 22]]
    assert obs[4].refused and obs[5].refused and obs[6].refused is None
    assert lives(obs[7])[0] == 20


def test_targets_lost_to_protection_in_response() -> None:
    """R2017-targets, R2017-protection-targets: the rest still happens; with
    no legal target nothing does."""
    other = Permanent("p2", 1, 1, power=1, toughness=1)
    partial = play(
        Setup(players=3, permanents=(BEAR, other)),
        a.TapAndDamage(2, ("p1", 0, "p2", 1), 2, protected_in_response=0),
    )[-1]
    assert partial.permanent("p2").tapped and not partial.permanent("p1").tapped
    assert lives(partial) == [20, 18, 20] and partial.players[2].cards_drawn == 1
    nothing = play(
        Setup(players=3, permanents=(BEAR,)),
        a.TapAndDamage(2, ("p1", 0), 2, protected_in_response=0),
    )[-1]
    assert nothing.players[2].cards_drawn == 0


def test_skipped_untap_step_ends_protection_not_phasing() -> None:
    """R2017-skip-untap."""
    obs = play(
        Setup(active=1, permanents=(BEAR,), effects=(SkipUntap(0),)),
        a.TeferisProtection(0),
        a.PassTurn(),
        a.DealDamage(1, 0, 2),
        a.PassTurn(),
        a.PassTurn(),
    )
    assert obs[2].permanent("p1").phased_out and obs[3].refused is None
    assert lives(obs[3])[0] == 18
    assert obs[5].permanent("p1").phased_in


def test_a_skipped_untap_step_keeps_what_protection_phased_out() -> None:
    """R2017-skip-untap: what Teferi's Protection phased out waits through
    its caster's skipped untap step; an engine phasing it in there fails."""
    scenario = Scenario(
        Setup(permanents=(BEAR,), effects=(SkipUntap(0),)),
        (a.TeferisProtection(0), *(a.PassTurn(),) * 4),
    )
    prop = REGISTRY["protection_ends_as_your_turn_begins"]
    prop.check(run(ReferenceEngine(), scenario))
    with pytest.raises(Violation, match="stays phased out until an untap step they have"):
        prop.check(run(mutant_engine("skipped-untap-phases-in"), scenario))


def test_unpreventable_infect_damage_poisons_a_locked_player() -> None:
    """R2017-unpreventable, 702.90b: infect damage gives poison counters, not
    life loss; under Teferi's Protection preventable infect damage is
    prevented, unpreventable infect damage still poisons (lifelink sees it)."""
    obs = play(
        Setup(permanents=(BEAR,)),
        a.DamageOpponents(1, 2, infect=True),
        a.TeferisProtection(0),
        a.DamageOpponents(1, 2, infect=True),
        a.DamageOpponents(1, 3, unpreventable=True, infect=True),
    )
    assert [o.players[0].poison for o in obs] == [0, 2, 2, 2, 5]
    assert [lives(o) for o in obs[1:]] == [[20, 22], [20, 22], [20, 22], [20, 25]]


def test_losing_life_cannot_be_replaced_while_locked() -> None:
    """R2017-life-replacement, its loss half: "if an opponent would lose
    life, you draw that many cards instead" replaces a loss of a life total
    that can change, and can't apply to one that can't."""
    into_cards = Permanent("p2", 1, 1, ("enchantment",), abilities=("lose_to_draw",))
    free = play(Setup(permanents=(BEAR, into_cards)), a.LoseLife(0, 3))[-1]
    assert (lives(free), free.players[1].cards_drawn) == ([20, 20], 3)
    locked = play(Setup(permanents=(BEAR, into_cards)), a.TeferisProtection(0), a.LoseLife(0, 3))
    assert (lives(locked[-1]), locked[-1].players[1].cards_drawn) == ([20, 20], 0)


def test_protected_players_still_discard() -> None:
    """R2017-nothing-else: "each opponent discards a card" doesn't target,
    so a player with protection from everything discards; 701.9b: a player
    with no cards in hand discards nothing."""
    obs = play(
        Setup(players=3, permanents=(BEAR,)),
        a.OpponentsDiscard(1),
        a.TeferisProtection(0),
        a.OpponentsDiscard(1),
    )
    assert [[p.cards_discarded for p in o.players] for o in obs] == [
        [0, 0, 0],
        [1, 0, 1],
        [1, 0, 1],
        [2, 0, 2],
    ]
    emptied = play(Setup(), *(a.OpponentsDiscard(1) for _ in range(OPENING_HAND + 1)))
    assert emptied[-1].players[0].cards_discarded == OPENING_HAND


def test_phase_out_triggers_resolve_under_the_lock() -> None:
    """R2017-life-no-effect, 608.2c, 603.3: Teferi's Protection locks the
    life total first; "whenever this phases out, you gain life" of the
    permanent it phases out resolves after the spell, and gains nothing.
    The property judges the cast; a mutant that resolves the trigger before
    locking fails it."""
    watcher = Permanent("p2", types=("enchantment",), abilities=("phases_out",))
    case = Scenario(
        Setup(permanents=(BEAR, watcher)),
        (a.GainLife(0, 1), a.TeferisProtection(0), a.GainLife(0, 2)),
    )
    prop = REGISTRY["locked_life_spells_resolve_without_changing_life"]
    reference = run(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    assert [o.life for o in (s.after.players[0] for s in reference.steps)] == [21, 21, 21]
    bugged = run(mutant_engine("protection-phases-out-before-locking"), case)
    with pytest.raises(Violation, match=r"player 0 casting Teferi's Protection.*life 21 -> 149"):
        prop.check(bugged)


def test_locked_caster_gains_nothing_from_lifelink() -> None:
    """R2017-life-no-effect, 702.15b, 119.10: a player who cast Teferi's
    Protection casts a lifelink spell; it deals its damage, and the life its
    lifelink would gain has no effect. A lifelink spell before the
    protection gains life, so the property counts the case as judged; a
    mutant that adds lifelink's gain past the lock fails it."""
    case = Scenario(
        Setup(permanents=(BEAR,)),
        (a.DamageOpponents(0, 2), a.TeferisProtection(0), a.DamageOpponents(0, 3)),
    )
    prop = REGISTRY["locked_life_spells_resolve_without_changing_life"]
    reference = run(ReferenceEngine(), case)
    prop.check(reference)
    assert prop.exercised is not None and prop.exercised(reference)
    assert [lives(s.after) for s in reference.steps] == [[22, 18], [22, 18], [22, 15]]
    bugged = run(mutant_engine("lifelink-ignores-life-lock"), case)
    with pytest.raises(Violation, match=r"action 3 .*player 0 .*life 22 -> 25"):
        prop.check(bugged)
