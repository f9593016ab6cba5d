"""Combat through phase.rs's own moves: moving on to the declare
attackers or blockers step and declaring. A declaration the engine refuses
restores the game as it was before the move on, and is returned as a
reason string, never raised."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.phase_rs.moves import MAX_MOVES, PASS


class Combat:
    """The combat moves of `adapters.phase_rs.driving.Driver`, whose game,
    events and moves they use."""

    game: Any
    events: list[dict[str, Any]]
    attacked: bool
    snapshot: Callable[[], dict[str, Any]]
    load: Callable[[dict[str, Any]], None]
    apply: Callable[[int, Any], list[dict[str, Any]]]
    waiting: Callable[[], dict[str, Any]]
    seat_to_act: Callable[[], int]
    answer_prompt: Callable[[], None]

    def declare_attackers(self, seat: int, attackers: list[int], defender: int) -> str | None:
        """Move to the declare attackers step and declare; if the engine
        refuses, the game is restored to the main phase it was in."""
        snapshot = self.snapshot()
        events = len(self.events)
        refusal = self._try_attack(seat, attackers, defender)
        if refusal is not None:
            self.load(snapshot)
            del self.events[events:]
            return refusal
        self.attacked = True
        return None

    def _try_attack(self, seat: int, attackers: list[int], defender: int) -> str | None:
        for _ in range(MAX_MOVES):
            waiting = self.waiting()
            if waiting["type"] == "DeclareAttackers":
                break
            if self.game.phase not in ("PreCombatMain", "BeginCombat"):
                return "phase.rs offers no attack: no creature can attack"
            self.answer_prompt()
        valid = set(waiting["data"].get("valid_attacker_ids", []))
        bad = [a for a in attackers if a not in valid]
        if bad:
            return f"objects {bad} can't attack"
        attack = {"type": "Player", "data": defender}
        move = {
            "type": "DeclareAttackers",
            "data": {"attacks": [[a, attack] for a in attackers], "bands": []},
        }
        try:
            self.apply(seat, move)
        except (ValueError, RuntimeError) as e:
            return f"phase.rs refused the attack: {e}"
        return None

    def declare_blockers(self, seat: int, blocks: list[tuple[int, int]]) -> str | None:
        """Move on to the declare blockers step and declare `blocks`
        (blocker, attacker); if the engine refuses, the game is restored to
        where it was (the declare attackers step)."""
        snapshot = self.snapshot()
        events = len(self.events)
        refusal = self._try_block(seat, blocks)
        if refusal is not None:
            self.load(snapshot)
            del self.events[events:]
        return refusal

    def _try_block(self, seat: int, blocks: list[tuple[int, int]]) -> str | None:
        if not self.attacked or self.game.phase != "DeclareAttackers":
            return "blockers can't be declared now"
        for _ in range(MAX_MOVES):
            waiting = self.waiting()
            if waiting["type"] == "DeclareBlockers":
                break
            if self.game.phase != "DeclareAttackers":
                return "phase.rs offers no blocks"
            self.apply(self.seat_to_act(), PASS)
        data = waiting["data"]
        if int(data["player"]) != seat:
            return f"player {seat} is not the defending player"
        valid = set(data.get("valid_blocker_ids", []))
        bad = [b for b, _ in blocks if b not in valid]
        if bad:
            return f"objects {bad} can't block"
        move = {"type": "DeclareBlockers", "data": {"assignments": [list(p) for p in blocks]}}
        try:
            self.apply(seat, move)
        except (ValueError, RuntimeError) as e:
            return f"phase.rs refused the blocks: {e}"
        return None
