"""Boards for the untap-step benchmarks: legal setups of any size where every
part of the untap step has work to do (502.1, 702.26a, 702.26g, 502.3).

A board repeats one block of ten permanents, all controlled by the player
whose untap step is measured (the worst case: nothing can be skipped by
controller). Half of them have phasing, four in ten are phased out, and an
Aura and two Equipment are attached, one of them phased out indirectly with
its host. Hosts come before their attachments, as `check_setup` requires.

An engine without Auras or Equipment gets the same block with those three
as unattached enchantment and artifacts (`board(size, attached=False)`), so
every engine the suite can load can be benchmarked.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

from conformance.capabilities import Capability
from conformance.setup import Permanent, PhasedOut, Setup

#: Board sizes `phasecert bench` measures by default, in permanents.
SIZES: tuple[int, ...] = (10, 30, 100, 300, 1_000, 3_000, 10_000)
#: Permanents in one block; every size is a multiple of it.
BLOCK = 10
#: The player whose untap step runs: the next player after the active one.
UNTAPPING = 1
#: What the attached block needs of an engine.
ATTACHING: frozenset[Capability] = frozenset({Capability.AURAS, Capability.EQUIPMENT})
#: Positions in a block that are phased out once the untap step is over:
#: the phasing creature, the phasing land and artifact (702.26a), and with
#: attachments the creature's Aura, indirectly (702.26g). Everything that
#: was out phases in.
OUT_AFTER: dict[bool, frozenset[int]] = {
    True: frozenset({0, 1, 6, 7}),
    False: frozenset({0, 6, 7}),
}


def attaches(capabilities: frozenset[Capability]) -> bool:
    """Whether an engine with `capabilities` gets the attached block."""
    return capabilities >= ATTACHING


@cache
def board(size: int, attached: bool = True) -> Setup:
    """A legal two-player position with `size` permanents, player 0 active;
    built once per size, since every round of a benchmark starts from it."""
    if size <= 0 or size % BLOCK:
        raise ValueError(f"board size must be a positive multiple of {BLOCK}, got {size}")
    blocks = (_block(i, attached) for i in range(size // BLOCK))
    return Setup(players=2, active=0, permanents=tuple(p for b in blocks for p in b))


def _block(i: int, attached: bool) -> tuple[Permanent, ...]:
    def pid(k: int) -> str:
        return f"b{i}.{k}"

    def perm(k: int, **fields: object) -> Permanent:
        return Permanent(pid(k), owner=UNTAPPING, controller=UNTAPPING, **fields)  # type: ignore[arg-type]

    out = PhasedOut("direct", UNTAPPING)
    if attached:
        aura = {"types": ("enchantment",), "attachment": "aura", "attached_to": pid(0)}
        equipment = {"types": ("artifact",), "attachment": "equipment"}
        held = {"phased_out": PhasedOut("indirect", UNTAPPING), "attached_to": pid(2)}
        worn = {"attached_to": pid(4)}
    else:
        aura, equipment, held, worn = {"types": ("enchantment",)}, {"types": ("artifact",)}, {}, {}
    return (
        perm(0, phasing=1, tapped=True, power=2, toughness=2),
        perm(1, **aura),
        perm(2, phasing=1, tapped=True, power=1, toughness=1, phased_out=out),
        perm(3, **held, **equipment),
        perm(4, tapped=True, power=3, toughness=3),
        perm(5, tapped=True, **worn, **equipment),
        perm(6, types=("land",), phasing=1, tapped=True),
        perm(7, types=("artifact",), phasing=1),
        perm(8, tapped=True, power=1, toughness=1, phased_out=out),
        perm(9, types=("enchantment",), phasing=1, phased_out=out),
    )


class UntapView(Protocol):
    """What `untap_problems` reads of a permanent after the untap step: a
    `PermanentView`, or the hand-written step's own permanent."""

    @property
    def id(self) -> str: ...
    @property
    def phased_out(self) -> bool: ...
    @property
    def phased_in(self) -> bool: ...
    @property
    def tapped(self) -> bool: ...


def untap_problems(permanents: Sequence[UntapView], size: int, attached: bool = True) -> list[str]:
    """What is wrong with the board after its untap step, so that a benchmark
    measures an engine that did the work: the right permanents are phased
    out (702.26a, 702.26g) and every phased-in one is untapped (502.3)."""
    problems = []
    out_after = OUT_AFTER[attached]
    for view in permanents:
        should_be_out = int(view.id.rsplit(".", 1)[1]) in out_after
        if view.phased_out != should_be_out:
            problems.append(f"{view.id} phased_out={view.phased_out}, expected {should_be_out}")
        elif view.phased_in and view.tapped:
            problems.append(f"{view.id} is still tapped")
    if len(permanents) != size:
        problems.append(f"{len(permanents)} permanents observed, expected {size}")
    return problems
