"""The starting position of a scenario: players, permanents and effects.

Values are immutable and JSON round-trippable (see `conformance.codec`), so a
counterexample can be stored, replayed and shown to a person. The vocabulary
is deliberately small: every field is something a phasing rule (CR 702.26)
talks about, or something a test needs to observe one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from conformance.capabilities import Capability

CardType = Literal["creature", "artifact", "enchantment", "land"]
Attachment = Literal["aura", "equipment", "fortification"]
PhaseCause = Literal["direct", "indirect"]

Ability = Literal[
    "etb",  # When this enters, you gain life.
    "ltb",  # When this leaves the battlefield, you gain life.
    "dies",  # When this dies, you gain life.
    "attached",  # Whenever this becomes attached to something, you gain life.
    "unattached",  # Whenever this becomes unattached, you gain life.
    "phases_in",  # Whenever this phases in, you gain life.
    "phases_out",  # Whenever this phases out, you gain life (603.10b).
    "anthem",  # Other creatures you control get +1/+1.
    "tap_gain_life",  # {T}: You gain 1 life.
    "draw_to_life",  # If an opponent would draw a card, that player gains 2 life instead.
    "gain_to_draw",  # If an opponent would gain life, you draw that many cards instead.
    "lose_to_draw",  # If an opponent would lose life, you draw that many cards instead.
    # Whenever this phases in, tap it. Triggered in the untap step, it
    # resolves in the upkeep, after untapping (502.4), so it stays tapped.
    "phases_in_tap",
]
TRIGGERS: tuple[Ability, ...] = (
    "etb",
    "ltb",
    "dies",
    "attached",
    "unattached",
    "phases_in",
    "phases_out",
)

#: Life each triggered ability gains its controller: distinct powers of two,
#: so an engine with no event log still shows which triggers fired.
TRIGGER_LIFE: dict[str, int] = {kind: 2 ** (i + 1) for i, kind in enumerate(TRIGGERS)}
#: Life the activated ability "{T}: You gain 1 life" gains.
TAP_LIFE = 1
STARTING_LIFE = 20
#: Cards in each player's hand as a scenario begins (103.5): more than a
#: scenario makes them discard.
OPENING_HAND = 7
#: Life "If an opponent would draw a card, that player gains 2 life
#: instead" gains per card.
DRAW_LIFE = 2
#: The replacement abilities of life and draws (R2017-replaced-by-life,
#: R2017-life-replacement).
LIFE_REPLACEMENTS: tuple[Ability, ...] = ("draw_to_life", "gain_to_draw")


@dataclass(frozen=True)
class PhasedOut:
    """How a permanent came to be phased out (702.26a, 702.26g, 610.4).

    `under` is the player who controlled it as it phased out: it phases in at
    that player's next untap step. `until` names the permanent whose leaving
    the battlefield phases it in, for "phases out until" effects (610.4).
    """

    cause: PhaseCause = "direct"
    under: int = 0
    until: str | None = None


@dataclass(frozen=True)
class Permanent:
    """A permanent on the battlefield at the start of a scenario.

    `attached_to` is a permanent id (str) or a player index (int).
    `chosen` is a choice made as it entered (R2017-choices), e.g. a color.
    `sick` means it came under its controller's control this turn.
    `default_controller` is the player it entered the battlefield under, who
    controls it when no control effect applies (110.2), if not its owner.
    `name` is its card name (None: a name of its own, its id); two
    permanents may share one. `legendary` puts it under the legend rule
    (704.5j).
    """

    id: str
    owner: int = 0
    controller: int = 0
    types: tuple[CardType, ...] = ("creature",)
    attachment: Attachment | None = None
    token: bool = False
    phasing: int = 0
    tapped: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    attached_to: str | int | None = None
    phased_out: PhasedOut | None = None
    abilities: tuple[Ability, ...] = ()
    power: int | None = None
    toughness: int | None = None
    chosen: str | None = None
    sick: bool = False
    default_controller: int | None = None
    name: str | None = None
    legendary: bool = False

    @property
    def card_name(self) -> str:
        """The name the legend rule compares (704.5j)."""
        return self.id if self.name is None else self.name

    @property
    def is_creature(self) -> bool:
        return "creature" in self.types

    @property
    def controller_by_default(self) -> int:
        """110.2: who controls it when no control effect applies."""
        return self.owner if self.default_controller is None else self.default_controller


DurationKind = Literal["end_of_turn", "your_next_turn", "indefinitely", "as_long_as_you_control"]


@dataclass(frozen=True)
class Duration:
    """How long a continuous effect lasts; `of` names the permanent for
    "for as long as you control X" (611.2b, 702.26f)."""

    kind: DurationKind = "indefinitely"
    of: str | None = None


@dataclass(frozen=True)
class ControlEffect:
    """`controller` controls `target` for `duration` (613, layer 2)."""

    target: str
    controller: int
    duration: Duration = field(default_factory=Duration)


@dataclass(frozen=True)
class BoostEffect:
    """`targets` get +power/+toughness for `duration`; created by `controller`.

    The set is fixed when the effect is created (702.26e, 611.2c)."""

    targets: tuple[str, ...]
    controller: int
    power: int = 1
    toughness: int = 1
    duration: Duration = field(default_factory=lambda: Duration("end_of_turn"))


@dataclass(frozen=True)
class SkipUntap:
    """`player` skips their next untap step (702.26m)."""

    player: int


Effect = ControlEffect | BoostEffect | SkipUntap


@dataclass(frozen=True)
class Setup:
    """A legal game position: players in turn order 0..players-1, whose turn
    it is (the game is in that player's first main phase), and what is on the
    battlefield."""

    players: int = 2
    active: int = 0
    turn: int = 1
    permanents: tuple[Permanent, ...] = ()
    effects: tuple[Effect, ...] = ()

    def turns_until(self, player: int) -> int:
        """How many turns pass before `player`'s next turn begins (a whole
        round if it is theirs now), players who leave excepted: their next
        untap step, where what phased out under them phases in (702.26a)."""
        return (player - self.active) % self.players or self.players

    def permanent(self, pid: str) -> Permanent:
        for p in self.permanents:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def capabilities(self) -> frozenset[Capability]:
        """What an engine must support to express this position."""
        need: set[Capability] = set()
        if self.players > 2:
            need.add(Capability.MULTIPLAYER)
        for p in self.permanents:
            need |= _permanent_needs(p)
        for e in self.effects:
            if isinstance(e, SkipUntap):
                need.add(Capability.SKIP_UNTAP)
            elif isinstance(e, BoostEffect):
                need.add(Capability.PT_BOOST)
            else:
                need.add(Capability.CONTROL_CHANGE)
            if not isinstance(e, SkipUntap) and e.duration.kind == "as_long_as_you_control":
                need.add(Capability.CONTROL_AS_LONG_AS)
        return frozenset(need)


def _permanent_needs(p: Permanent) -> set[Capability]:
    need: set[Capability] = set()
    if p.token:
        need.add(Capability.TOKENS)
    if p.attachment == "aura":
        need.add(Capability.AURAS)
        if isinstance(p.attached_to, int):
            need.add(Capability.PLAYER_AURAS)
    elif p.attachment == "equipment":
        need.add(Capability.EQUIPMENT)
    elif p.attachment == "fortification":
        need.add(Capability.FORTIFICATIONS)
    if p.counters:
        need.add(Capability.COUNTERS)
    if p.phasing > 1:
        need.add(Capability.REDUNDANT_PHASING)
    if p.chosen is not None:
        need.add(Capability.CHOICES)
    if p.controller_by_default != p.controller:
        need.add(Capability.CONTROL_CHANGE)
    if p.controller_by_default != p.owner:
        need.add(Capability.DEFAULT_CONTROLLER)
    if p.phased_out is not None and p.phased_out.until is not None:
        need.add(Capability.PHASE_OUT_UNTIL)
    if p.phased_out is not None and p.phased_out.under != p.controller:
        need.add(Capability.PHASED_OUT_UNDER_OTHER)
    if p.legendary:
        need.add(Capability.LEGEND_RULE)
    for a in p.abilities:
        if a == "anthem":
            need.add(Capability.ANTHEM)
        elif a == "tap_gain_life":
            need.add(Capability.ACTIVATED_ABILITIES)
        elif a in ("phases_in", "phases_out"):
            need.add(Capability.PHASE_TRIGGERS)
        elif a in LIFE_REPLACEMENTS:
            need.add(Capability.LIFE_REPLACEMENT)
        elif a == "lose_to_draw":
            need.add(Capability.LOSS_REPLACEMENT)
        elif a == "phases_in_tap":
            need.add(Capability.UPKEEP_TRIGGERS)
        else:
            need.add(Capability.TRIGGERS)
    return need
