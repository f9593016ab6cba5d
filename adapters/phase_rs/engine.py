"""`PhaseRsEngine`: the protocol's `Engine` for phase.rs, with the
capabilities the adapter can really express and play."""

from __future__ import annotations

import importlib.util
from importlib import metadata
from typing import TYPE_CHECKING

from conformance.capabilities import Capability as C
from conformance.scenario import Scenario

if TYPE_CHECKING:
    from adapters.phase_rs.game import PhaseRsGame
    from conformance.setup import Setup

DISTRIBUTION = "phase-python"
INSTALL_HINT = "phase-python is not installed; pip install 'phasecert[phase-rs]'"

#: What the adapter can't express, and why; a property needing one of these is
#: reported "not applicable" (see `conformance.capabilities`). Each reason is
#: shown by a probe script, adapters/phase_rs/probes/<capability>.py.
MISSING: dict[C, str] = {
    C.PHASED_OUT_UNDER_OTHER: (
        "phase.rs keeps one controller per object and doesn't recompute it while "
        "the object is phased out: that controller is both who controls it and "
        "whose untap step phases it in, so 'controlled by A, phased out under B' "
        "has no state (probes/phased_out_under_other.py)"
    ),
    C.CONTROL_AS_LONG_AS_OTHER: (
        "phase.rs parses 'for as long as you control X' only as an ability of X, "
        "activated by X's controller: a spell naming another permanent as X gains "
        "nothing, so a duration that never starts (611.2b) can't be played "
        "(probes/control_for_as_long_as_other.py)"
    ),
    C.STACKED_RESPONSES: (
        "the only phase.rs move that lets a second response phase a waiting spell's "
        "target back in is 'phases out until this leaves the battlefield', whose "
        "duration phase.rs ignores (D10): the target stays out as its source leaves, "
        "so the spell never finds it back (probes/stacked_responses.py)"
    ),
    C.LOSS_REPLACEMENT: (
        "phase.rs parses no 'if an opponent would lose life, you draw that many cards "
        "instead': written like 'gain_to_draw' it is Unimplemented, and reworded "
        "'instead you draw that many cards' it becomes a life-loss replacement without "
        "the draw; cast, either lets the opponent lose the life and nobody draws "
        "(probes/loss_replacement.py)"
    ),
}
#: `GainControl` lasting "for as long as you control X" is played as X's own
#: ability when the caster controls X, phased in, the only case phase.rs
#: parses (CONTROL_AS_LONG_AS without _OTHER). "Phases out until X leaves" is
#: X's ability too, and phase.rs ignores its duration (D10).
CAPABILITIES: frozenset[C] = frozenset(
    {
        C.TOKENS,
        C.AURAS,
        C.PLAYER_AURAS,
        C.EQUIPMENT,
        C.FORTIFICATIONS,
        C.COUNTERS,
        C.REDUNDANT_PHASING,
        C.TRIGGERS,
        C.PHASE_TRIGGERS,
        C.ANTHEM,
        C.ACTIVATED_ABILITIES,
        C.CHOICES,
        C.CONTROL_CHANGE,
        C.CONTROL_AS_LONG_AS,
        C.PT_BOOST,
        C.SKIP_UNTAP,
        C.MULTIPLAYER,
        C.TARGETING,
        C.PHASE_OUT_ALL,
        C.PHASE_OUT_UNTIL,
        C.DESTROY,
        C.COUNT_CREATURES,
        C.COMBAT,
        C.LEAVE_GAME,
        C.DEFAULT_CONTROLLER,
        C.UPKEEP_TRIGGERS,
        C.HISTORY,
        C.MANA_ABILITIES,
        C.BLOCKING,
        C.DAMAGE_MARKED,
        C.LEGEND_RULE,
        # Teferi's Protection whole (issue 12): the engine's own cards for
        # it, the life spells and costs, damage to players, multi-target
        # spells and Auras cast at players (`players`, `player_cards`); the
        # life replacement abilities are permanents' text (`cards`).
        C.PLAYER_PROTECTION,
        C.LIFE_LOCK,
        C.LIFE_SPELLS,
        C.LIFE_COSTS,
        C.LIFE_REPLACEMENT,
        C.PLAYER_DAMAGE,
        C.MULTI_TARGET,
        C.CAST_AURAS,
        # Infect damage (702.90b) is the lifelink spell with the keyword;
        # players' poison counters are read from the engine (`observing`).
        C.INFECT,
        # "Each opponent discards a card" (701.9a), a keepsake if a hand is
        # empty (`players`); discards are the engine's `Discarded` events.
        C.DISCARD,
    }
)


class PhaseRsEngine:
    """Implements `adapters.protocol.Engine` for phase.rs."""

    name = "phase-rs"
    capabilities: frozenset[C] = CAPABILITIES
    missing: dict[C, str] = MISSING
    #: phase.rs plays today's rules only (a phased-out token stays and phases
    #: back in, R2017-tokens), not the older editions (conformance.editions).
    editions: frozenset[str] = frozenset({"current"})
    #: Benchmarks stop here: a 2,000-permanent board took 1.9 s to start and
    #: 2.6 s per pass turn (9x the 1,000-permanent times), so 10,000 would
    #: take minutes per round (reports/benchmarks.md).
    bench_max_size = 1_000

    def __init__(self) -> None:
        if importlib.util.find_spec("phase") is None:
            raise RuntimeError(INSTALL_HINT)
        try:
            self.version: str = metadata.version(DISTRIBUTION)
        except metadata.PackageNotFoundError:
            raise RuntimeError(INSTALL_HINT) from None

    def start(self, setup: Setup) -> PhaseRsGame:
        """A game in the position `setup`; ValueError names what phase.rs
        can't express (a capability it lacks, or a state it has no field for)."""
        return self.start_scenario(Scenario(setup))

    def start_scenario(self, scenario: Scenario) -> PhaseRsGame:
        """A game in `scenario`'s position, with the cards its actions will
        need in their players' libraries (`supply`): each first cast is then
        a move of the engine instead of an export and a load of the game,
        and the filler its draws will need."""
        from adapters.phase_rs.game import PhaseRsGame
        from adapters.phase_rs.position import setup_problems
        from adapters.phase_rs.supply import filler_for, spells_for

        setup = scenario.setup
        missing = sorted(c.value for c in setup.capabilities() - self.capabilities)
        problems = [f"needs capabilities phase-rs lacks: {', '.join(missing)}"] if missing else []
        problems += setup_problems(setup)
        if problems:
            raise ValueError("phase-rs can't set up this position: " + "; ".join(problems))
        return PhaseRsGame(setup, spells_for(scenario), filler_for(scenario))
