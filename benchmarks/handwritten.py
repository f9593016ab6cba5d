"""The untap step written by hand for the benchmark boards: the least a Python
engine must do there, as a second yardstick between the bare floor (one field
flipped per permanent) and a rules engine.

It does what the rules ask of the untap step on these boards and nothing
else: one pass fixes what phases out and in (702.26a), attachments follow
their host (702.26g), one `Event` is reported per permanent that phases, as
every adapter must, and then the phased-in permanents untap (502.1, 502.3).
It knows nothing the boards don't need ("until" durations, departed players,
triggers, combat), so it is a lower bound, not an engine: the suite never
certifies it.
"""

from __future__ import annotations

from conformance.observation import Event
from conformance.setup import PhaseCause, Setup


class BarePermanent:
    """A permanent reduced to the fields the untap step reads and writes."""

    __slots__ = ("attachments", "cause", "controller", "id", "phasing", "tapped")

    def __init__(
        self, id: str, controller: int, phasing: int, cause: PhaseCause | None, tapped: bool
    ) -> None:
        self.id = id
        self.controller = controller
        self.phasing = phasing
        self.cause = cause
        self.tapped = tapped
        self.attachments: list[BarePermanent] = []

    @property
    def phased_out(self) -> bool:
        return self.cause is not None

    @property
    def phased_in(self) -> bool:
        return self.cause is None


def bare_board(setup: Setup) -> list[BarePermanent]:
    """`setup`'s permanents, each holding what is attached to it."""
    board = {
        p.id: BarePermanent(
            p.id,
            p.controller,
            p.phasing,
            None if p.phased_out is None else p.phased_out.cause,
            p.tapped,
        )
        for p in setup.permanents
    }
    for p in setup.permanents:
        if isinstance(p.attached_to, str):
            board[p.attached_to].attachments.append(board[p.id])
    return list(board.values())


def untap_step(board: list[BarePermanent], player: int) -> list[Event]:
    """`player`'s untap step on `board`, returning the events it reports."""
    events: list[Event] = []
    going_out = []
    coming_in = []
    # 702.26a: both sets are fixed before anything phases.
    for permanent in board:
        if permanent.controller != player:
            continue
        if permanent.cause is None:
            if permanent.phasing:
                going_out.append(permanent)
        elif permanent.cause == "direct":
            coming_in.append(permanent)
    for permanent in going_out:
        permanent.cause = "direct"
        events.append(Event("phased_out", permanent.id, "direct"))
        for attached in permanent.attachments:
            if attached.cause is None:
                attached.cause = "indirect"
                events.append(Event("phased_out", attached.id, "indirect"))
    for permanent in coming_in:
        permanent.cause = None
        events.append(Event("phased_in", permanent.id))
        for attached in permanent.attachments:
            if attached.cause == "indirect":
                attached.cause = None
                events.append(Event("phased_in", attached.id))
    for permanent in board:
        if permanent.controller == player and permanent.cause is None:
            permanent.tapped = False
    return events
