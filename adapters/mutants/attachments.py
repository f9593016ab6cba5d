"""Mutants that mishandle attachments (702.26g–j, 704.5m, 704.5n,
R2017-auras, R2017-attached)."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.mutants import mutant
from adapters.reference import Rules
from adapters.reference.state import Card, GameState
from conformance import actions as a
from conformance.observation import Event
from conformance.setup import PhasedOut


@mutant(
    "attachments-stay-behind",
    "702.26g",
    "Auras and Equipment stay phased in when their host phases out",
    kills=("attachments_phase_out_with_their_host",),
)
class AttachmentsStayBehind(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        for card in [c for c in roots if c.phased_in]:
            card.phased_out = PhasedOut("direct", card.controller, until)
            self.removed_from_combat(card)
            self.state.events.append(Event("phased_out", card.id, "direct"))
            self.phase_trigger(card, "phases_out")


@mutant(
    "host-claims-phased-out-attachments",
    "702.26g",
    "a host phasing out re-marks attachments already phased out directly as phased out with it",
    kills=("phased_out_permanents_keep_how_they_phased_out",),
)
class HostClaimsPhasedOutAttachments(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        hosts = [c for c in roots if c.phased_in]
        already_out = [
            card
            for host in hosts
            for card in self.state.attachments_of(host.id)
            if card.phased_out is not None and card.phased_out.cause == "direct"
        ]
        super().phase_out(hosts, until)
        for card in already_out:
            card.phased_out = PhasedOut("indirect", card.phased_out.under)  # type: ignore[union-attr]


@mutant(
    "indirect-phase-in-alone",
    "702.26g",
    "indirectly phased-out attachments phase in on their own at the untap step",
    kills=("attachments_phase_out_with_their_host",),
)
class IndirectPhaseInAlone(Rules):
    def phases_in_in_untap(self, card: Card, player: int) -> bool:
        out = card.phased_out
        if out is not None and out.cause == "indirect":
            return out.under == player
        return super().phases_in_in_untap(card, player)


@mutant(
    "attachments-left-out",
    "R2017-attached",
    "when a permanent phases in, what phased out with it stays phased out",
    kills=("attachments_return_with_their_host",),
)
class AttachmentsLeftOut(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        card.phased_out = None
        self.state.events.append(Event("phased_in", card.id))
        self.phase_trigger(card, "phases_in")


@mutant(
    "phase-in-brings-direct-attachments",
    "702.26g",
    "a permanent phasing in brings back every phased-out attachment on it, also one that "
    "phased out on its own before it and waits for its own untap step",
    kills=("phased_out_permanents_stay_out_between_untap_steps",),
)
class PhaseInBringsDirectAttachments(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        if card.phased_out is None:
            return  # brought in with its host, before its own turn as a root
        card.phased_out = None
        self.state.events.append(Event("phased_in", card.id))
        self.phase_trigger(card, "phases_in")
        for attached in self.state.attachments_of(card.id):
            if attached.phased_out is not None:
                self.phase_in_with_attachments(attached)


@mutant(
    "direct-wins",
    "702.26h",
    "an attachment phasing out both directly and indirectly counts as direct",
    kills=("phasing_out_both_ways_is_indirect",),
)
class DirectWins(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        roots = list(roots)
        super().phase_out(roots, until)
        for card in roots:
            if card.phased_out is not None and card.phased_out.cause == "indirect":
                card.phased_out = PhasedOut("direct", card.controller, until)


@mutant(
    "aura-returns-unattached",
    "R2017-auras",
    "a directly phased-out Aura or Equipment always phases in unattached",
    kills=("directly_phased_out_attachments_find_their_host",),
)
class AuraReturnsUnattached(Rules):
    def reattach(self, card: Card) -> None:
        card.attached_to = None


@mutant(
    "fortification-returns-unattached",
    "702.26i",
    "a directly phased-out Fortification phases in unattached: only Auras and Equipment look "
    "for their host",
    kills=("directly_phased_out_attachments_find_their_host",),
)
class FortificationReturnsUnattached(Rules):
    def reattach(self, card: Card) -> None:
        if card.attachment == "fortification":
            card.attached_to = None
        else:
            super().reattach(card)


@mutant(
    "host-back-from-phasing-is-new",
    "702.26i",
    "phasing counts as a zone change for attachments: a directly phased-out attachment whose "
    "host phased out and back in meanwhile takes it for a new object and phases in unattached",
    kills=("directly_phased_out_attachments_find_their_host",),
)
class HostBackFromPhasingIsNew(Rules):
    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        # How often each permanent phased out ("changed zones"), and how
        # often its host had as each attachment phased out directly.
        self.moves: dict[str | int, int] = {}
        self.seen: dict[str, int] = {}

    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        roots = list(roots)
        super().phase_out(roots, until)
        for card in roots:
            self.moves[card.id] = self.moves.get(card.id, 0) + 1
            if card.attached_to is not None:
                self.seen[card.id] = self.moves.get(card.attached_to, 0)

    def reattach(self, card: Card) -> None:
        host = card.attached_to
        if host is not None and self.seen.get(card.id, 0) != self.moves.get(host, 0):
            card.attached_to = None
        super().reattach(card)


@mutant(
    "phasing-host-triggers-returning-attachment",
    "603.10b",
    "the untap step lists what phases out with each phasing host, phased-out attachments "
    "included, before anything phases: one phased out on its own, phasing in as its host phases "
    "out, triggers 'whenever this phases out' though it never does",
    kills=("phase_triggers_trigger",),
)
class PhasingHostTriggersReturningAttachment(Rules):
    def phasing_event(self, player: int) -> None:
        hosts = {c.id for c in self.state.phased_in() if self.phases_out_in_untap(c, player)}
        listed = [
            c for c in self.state.in_play() if c.attached_to in hosts and c.phased_out is not None
        ]
        super().phasing_event(player)
        for card in listed:
            self.phase_trigger(card, "phases_out")


@mutant(
    "aura-keeps-gone-host",
    "702.26i",
    "a directly phased-out attachment phases in still attached to a host that is gone",
    kills=("directly_phased_out_attachments_find_their_host",),
)
class AuraKeepsGoneHost(Rules):
    def reattach(self, card: Card) -> None:
        return None

    def attached_legally(self, card: Card) -> bool:
        return card.attached_to is not None or card.attachment != "aura"


@mutant(
    "phasing-fires-attach-triggers",
    "702.26j",
    'phasing in with a host fires "becomes attached" triggers',
    kills=("phasing_never_attaches_or_unattaches",),
)
class PhasingFiresAttachTriggers(Rules):
    def phase_in_with_attachments(self, card: Card) -> None:
        super().phase_in_with_attachments(card)
        if card.attached_to is not None:
            self.state.events.append(Event("attached", card.id, str(card.attached_to)))
            self.trigger(card, "attached")


@mutant(
    "host-leaving-unattaches-phased-out-equipment",
    "702.26j",
    "a permanent leaving the battlefield unattaches the Equipment and Fortifications on it at "
    "once, phased-out ones too, firing their 'becomes unattached' triggers",
    kills=("phasing_never_attaches_or_unattaches",),
)
class HostLeavingUnattachesPhasedOutEquipment(Rules):
    def leave_battlefield(self, card: Card, zone: str, release: bool = True) -> None:
        for other in self.state.cards.values():
            if (
                other.on_battlefield
                and other.attached_to == card.id
                and other.attachment in ("equipment", "fortification")
            ):
                other.attached_to = None
                self.state.events.append(Event("unattached", other.id))
                if "unattached" in other.abilities:
                    self.state.triggers.append((other.id, "unattached", other.controller))
        super().leave_battlefield(card, zone, release)


@mutant(
    "unattached-aura-stays",
    "704.5m",
    "an Aura whose host is gone stays on the battlefield unattached",
    kills=("no_aura_stays_unattached",),
)
class UnattachedAuraStays(Rules):
    def aura_to_graveyard(self, card: Card) -> None:
        card.attached_to = None
        card.attachment = None


@mutant(
    "equipment-dies-with-host",
    "704.5n",
    "Equipment whose host is gone goes to the graveyard like an Aura",
    kills=("equipment_stays_when_unattached",),
)
class EquipmentDiesWithHost(Rules):
    def unattach(self, card: Card) -> None:
        self.leave_battlefield(card, "graveyard")


@mutant(
    "equipment-falls-off-foreign-creature",
    "704.5n",
    "Equipment on a creature its controller doesn't control is taken for attached illegally "
    "and becomes unattached, though the two controllers need not be the same (301.5d)",
    kills=("equipment_stays_when_unattached",),
)
class EquipmentFallsOffForeignCreature(Rules):
    def attached_legally(self, card: Card) -> bool:
        host = card.attached_to
        foreign = (
            card.attachment == "equipment"
            and isinstance(host, str)
            and self.state.cards[host].controller != card.controller
        )
        return not foreign and super().attached_legally(card)


@mutant(
    "state-based-actions-at-turn-start",
    "704.3",
    "state-based actions are checked only as a turn begins, not each time a player would "
    "receive priority (after a spell resolves)",
    kills=("no_aura_stays_unattached",),
)
class StateBasedActionsAtTurnStart(Rules):
    def after_action(self, action: a.Action) -> None:
        if isinstance(action, a.PassTurn):
            self.receive_priority()


@mutant(
    "phase-out-event-by-order",
    "702.26h",
    "reports an attachment's phase-out as indirect only if its host came first on the "
    "battlefield, so one listed before its host is reported as phased out directly, though it "
    "is shown phased out indirectly (phase.rs D5)",
    kills=("phase_out_events_say_how_it_phased_out",),
)
class PhaseOutEventByOrder(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        start = len(self.state.events)
        super().phase_out(roots, until)
        order = {pid: i for i, pid in enumerate(self.state.cards)}
        events = self.state.events
        for i in range(start, len(events)):
            pid = events[i].subject
            host = self.state.cards[pid].attached_to
            before_host = isinstance(host, str) and order[host] > order[pid]
            if events[i].kind == "phased_out" and before_host:
                events[i] = Event("phased_out", pid, "direct")


@mutant(
    "fortifications-stay-behind",
    "702.26g",
    "a Fortification stays phased in when its land phases out: only Auras and Equipment "
    "phase out with their host",
    kills=("attachments_phase_out_with_their_host",),
)
class FortificationsStayBehind(Rules):
    def phase_out(self, roots: Iterable[Card], until: str | None = None) -> None:
        roots = list(roots)
        # Unattached for the moment, a Fortification isn't in its land's group.
        behind = {
            c: c.attached_to
            for c in self.state.cards.values()
            if c.attachment == "fortification" and c not in roots
        }
        for card in behind:
            card.attached_to = None
        try:
            super().phase_out(roots, until)
        finally:
            for card, host in behind.items():
                card.attached_to = host
