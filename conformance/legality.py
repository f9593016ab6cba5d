"""Which setups are legal game positions.

Strategies generate only legal setups, and a scenario file that describes an
impossible position is refused with a message naming what is wrong, before
any engine sees it.
"""

from __future__ import annotations

import re

from conformance.setup import BoostEffect, ControlEffect, Permanent, Setup, SkipUntap


class InvalidScenario(ValueError):
    """A scenario that is not a legal game position; the message says why."""


def setup_problems(setup: Setup) -> list[str]:
    """Every reason `setup` is not a legal position, as readable sentences."""
    problems: list[str] = []
    if not 2 <= setup.players <= 4:
        problems.append(f"players must be 2 to 4, got {setup.players}")
    if not 0 <= setup.active < setup.players:
        problems.append(f"active player {setup.active} is not one of the {setup.players} players")
    if setup.turn < 1:
        problems.append(f"turn must be at least 1, got {setup.turn}")
    by_id: dict[str, Permanent] = {}
    for p in setup.permanents:
        if not p.id:
            problems.append("a permanent has an empty id")
        if p.id in by_id:
            problems.append(f"two permanents have the id {p.id!r}")
        by_id[p.id] = p
    for p in setup.permanents:
        problems.extend(f"{p.id}: {m}" for m in _permanent_problems(p, by_id, setup.players))
    problems.extend(_effect_problems(setup, by_id))
    problems.extend(_legend_problems(setup))
    return problems


def _legend_problems(setup: Setup) -> list[str]:
    """704.5j: no player controls two phased-in legendary permanents with
    one name; the legend rule would already have put one into a graveyard.
    Phased-out ones don't count (702.26b)."""
    seen: dict[tuple[int, str], str] = {}
    problems = []
    for p in setup.permanents:
        if not p.legendary or p.phased_out is not None:
            continue
        key = (p.controller, p.card_name)
        if key in seen:
            problems.append(
                f"{p.id}: player {p.controller} also controls {seen[key]}, a phased-in legendary "
                f"permanent named {p.card_name!r} (704.5j)"
            )
        seen.setdefault(key, p.id)
    return problems


def check_setup(setup: Setup) -> None:
    problems = setup_problems(setup)
    if problems:
        raise InvalidScenario("illegal setup: " + "; ".join(problems))


def _player_ok(index: int, players: int) -> bool:
    return 0 <= index < players


def _permanent_problems(p: Permanent, by_id: dict[str, Permanent], players: int) -> list[str]:
    out: list[str] = []
    if not _player_ok(p.owner, players) or not _player_ok(p.controller, players):
        out.append(f"owner {p.owner} / controller {p.controller} must be players 0..{players - 1}")
    if p.default_controller is not None and not _player_ok(p.default_controller, players):
        out.append(f"default controller {p.default_controller} must be a player 0..{players - 1}")
    if not p.types or len(set(p.types)) != len(p.types):
        out.append(f"types must be a non-empty list without repeats, got {list(p.types)}")
    if p.is_creature != (p.power is not None and p.toughness is not None):
        out.append("a creature needs power and toughness, and only a creature has them")
    if p.toughness is not None and p.toughness < 1:
        out.append(f"toughness must be at least 1, got {p.toughness}")
    if p.phasing < 0:
        out.append(f"phasing instances must be 0 or more, got {p.phasing}")
    if any(n < 1 or not kind for kind, n in p.counters) or len(dict(p.counters)) != len(p.counters):
        out.append(f"counters must be distinct kinds with positive numbers, got {p.counters}")
    if changing := sorted(k for k, _ in p.counters if _PT_COUNTER.match(k) and k != "+1/+1"):
        out.append(
            f"counters {changing} would change power and toughness (122.1a), which the "
            "vocabulary doesn't model: only +1/+1 counters do; other kinds are names alone"
        )
    if len(set(p.abilities)) != len(p.abilities):
        out.append("abilities are listed twice")
    if ("attached" in p.abilities or "unattached" in p.abilities) and p.attachment is None:
        out.append("only an Aura, Equipment or Fortification has attach triggers")
    out.extend(_attachment_problems(p, by_id, players))
    out.extend(_phasing_problems(p, by_id, players))
    return out


#: A counter kind that changes power and toughness (122.1a: "+1/+0", "-1/-1").
_PT_COUNTER = re.compile(r"^[+-]\d+/[+-]\d+$")
_ATTACHMENT_TYPE = {"aura": "enchantment", "equipment": "artifact", "fortification": "artifact"}
_HOST_TYPE = {"equipment": "creature", "fortification": "land"}


def _attachment_problems(p: Permanent, by_id: dict[str, Permanent], players: int) -> list[str]:
    if p.attachment is None:
        return [] if p.attached_to is None else ["only an attachment can be attached"]
    out = []
    if _ATTACHMENT_TYPE[p.attachment] not in p.types or p.is_creature:
        out.append(f"an {p.attachment} must be a noncreature {_ATTACHMENT_TYPE[p.attachment]}")
    host = p.attached_to
    if host is None:
        if p.attachment == "aura":
            out.append("an Aura must be attached (704.5m)")
    elif isinstance(host, int):
        if p.attachment != "aura" or not _player_ok(host, players):
            out.append(f"only an Aura can be attached to a player, and {host} must be a player")
    elif host not in by_id or host == p.id:
        out.append(f"attached to {host!r}, which is not another permanent of the setup")
    else:
        wanted = _HOST_TYPE.get(p.attachment)
        if wanted and wanted not in by_id[host].types:
            out.append(f"an {p.attachment} must be attached to a {wanted}")
        if _attachment_cycle(p, by_id):
            out.append("attachments form a cycle")
    return out


def _attachment_cycle(p: Permanent, by_id: dict[str, Permanent]) -> bool:
    seen = {p.id}
    host = p.attached_to
    while isinstance(host, str) and host in by_id:
        if host in seen:
            return True
        seen.add(host)
        host = by_id[host].attached_to
    return False


def _phasing_problems(p: Permanent, by_id: dict[str, Permanent], players: int) -> list[str]:
    host = by_id.get(p.attached_to) if isinstance(p.attached_to, str) else None
    host_out = host is not None and host.phased_out is not None
    out = []
    if p.phased_out is None:
        if host_out:
            out.append("phased in while its host is phased out (702.26g)")
        return out
    if not _player_ok(p.phased_out.under, players):
        out.append(f"phased out under {p.phased_out.under}, who is not a player")
    if p.phased_out.cause == "indirect" and not host_out:
        out.append("phased out indirectly, but not attached to a phased-out permanent (702.26g)")
    until = p.phased_out.until
    if until is not None:
        if p.phased_out.cause != "direct":
            out.append("only a directly phased-out permanent waits for 'until' (610.4)")
        if until not in by_id or until == p.id or by_id[until].phased_out is not None:
            out.append(f"phased out until {until!r} leaves, which must be a phased-in permanent")
    return out


def _effect_problems(setup: Setup, by_id: dict[str, Permanent]) -> list[str]:
    out = []
    controlled: set[str] = set()
    for i, e in enumerate(setup.effects):
        where = f"effect {i}"
        if isinstance(e, SkipUntap):
            if not _player_ok(e.player, setup.players):
                out.append(f"{where}: player {e.player} is not a player")
            continue
        if not _player_ok(e.controller, setup.players):
            out.append(f"{where}: controller {e.controller} is not a player")
        duration = e.duration
        if (duration.kind == "as_long_as_you_control") != (duration.of is not None):
            out.append(f"{where}: only 'as long as you control' names a permanent")
        elif duration.of is not None and duration.of not in by_id:
            out.append(f"{where}: duration names {duration.of!r}, not a permanent of the setup")
        elif duration.of is not None:
            out.extend(_anchor_problems(where, e.controller, by_id[duration.of]))
        if isinstance(e, ControlEffect):
            target = by_id.get(e.target)
            if target is None:
                out.append(f"{where}: {e.target!r} is not a permanent of the setup")
            elif target.controller != e.controller or e.target in controlled:
                out.append(
                    f"{where}: the control effect on {e.target!r} must be the one giving "
                    f"its controller {target.controller} control, and only one"
                )
            controlled.add(e.target)
        elif isinstance(e, BoostEffect):
            missing = [t for t in e.targets if t not in by_id or not by_id[t].is_creature]
            if missing or not e.targets:
                out.append(f"{where}: boosts {missing or 'nothing'}, not creatures of the setup")
    return out


def _anchor_problems(where: str, controller: int, x: Permanent) -> list[str]:
    """611.2b, 702.26f, R2017-for-as-long-as: a "for as long as you control
    X" effect ends as its controller stops controlling X or X phases out
    (phased-out permanents are ignored), so one still in the position has
    an X phased in and controlled by the effect's controller."""
    if x.phased_out is None and x.controller == controller:
        return []
    state = "phased out" if x.phased_out is not None else f"controlled by player {x.controller}"
    return [
        f"{where}: lasts for as long as player {controller} controls {x.id!r}, which is {state}, "
        "so it would already have ended (611.2b, 702.26f); X must be a phased-in permanent "
        "of the effect's controller"
    ]
