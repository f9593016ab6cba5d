"""Plans around an attachment and its host (301.5, 303.4): the host phases
out with what is attached to it and back in (702.26g), or the attachment,
phased out on its own, phases in with its host gone or still there
(702.26i)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st

from conformance import actions as a
from conformance.capabilities import Capability as C
from conformance.setup import Permanent, Setup
from conformance.strategies._draw import Caps, integer, maybe, pick
from conformance.strategies.plans import Planned, with_phased_in
from conformance.strategies.players import new_id, with_changed, with_permanents

#: Each kind of attachment, the capability it needs, its card type and what
#: it is attached to (301.5, 303.4).
ATTACHMENT_KINDS = (
    ("aura", C.AURAS, "enchantment", "creature"),
    ("equipment", C.EQUIPMENT, "artifact", "creature"),
    ("fortification", C.FORTIFICATIONS, "artifact", "land"),
)


def _attachment_pair(draw: st.DrawFn, setup: Setup) -> tuple[Setup, str, str] | None:
    """An attachment and the permanent it is attached to, the host phased
    in: if it was phased out directly, the setup is changed so that it and
    what phased out with it (702.26g) are phased in."""
    by_id = {p.id: p for p in setup.permanents}
    pairs = [
        (p.id, p.attached_to)
        for p in setup.permanents
        if isinstance(p.attached_to, str)
        and (
            by_id[p.attached_to].phased_out is None
            or by_id[p.attached_to].phased_out.cause == "direct"
        )  # type: ignore[union-attr]
    ]
    if not pairs:
        return None
    attachment, host = pick(draw, pairs)
    return with_phased_in(setup, {host}), attachment, host


def host_phases_out_and_in(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26g, R2017-attached: a permanent with something attached phases
    out (targeted, Teferi's Protection, or until a source leaves, which it
    then does), sometimes after one of its attachments phased out on its
    own, then turns pass."""
    # The drawn setups rarely have a Fortification on a land (one must be
    # drawn after the other): sometimes the plan adds that pair.
    forts = [k for k in ATTACHMENT_KINDS if k[0] == "fortification" and k[1] in caps]
    new = bool(forts) and maybe(draw)
    drawn = new_pair(draw, setup, forts) if new else _attachment_pair(draw, setup)
    if drawn is None:
        return setup, ()
    setup, attachment, host = drawn
    player = setup.permanent(host).controller
    first: tuple[a.Action, ...] = (a.PhaseOut(player, (attachment,)),) if maybe(draw) else ()
    outs: list[tuple[a.Action, ...]] = [(a.PhaseOut(player, (host,)),), (a.PhaseOutAll(player),)]
    sources = [p.id for p in setup.permanents if p.phased_out is None and p.attached_to is None]
    source = pick(draw, sources) if sources else host
    if source != host:
        # 610.4: the host phases out until a source leaves, which it then does.
        until = a.PhaseOutUntil(setup.permanent(source).controller, source, host)
        outs.append((until, a.Destroy(player, source)))
    return setup, (*first, *pick(draw, outs), a.PassTurn(), a.PassTurn())


def host_returns_without_direct_attachment(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26g, 610.4: an attachment phases out on its own, then its host
    phases out until a source leaves (another unattached permanent, or an
    artifact added), which is then destroyed: the host phases in at once,
    the attachment stays out until the untap step of the player it phased
    out under, which the turns then passing reach. Or, half the time,
    `host_phases_out_and_in`."""
    drawn = _attachment_pair(draw, setup)
    if drawn is None or maybe(draw):
        return host_phases_out_and_in(draw, setup, caps)
    setup, attachment, host = drawn
    player = setup.permanent(attachment).controller
    sources = [
        p.id
        for p in setup.permanents
        if p.phased_out is None and p.attached_to is None and p.id != host
    ]
    if not sources:
        added = Permanent(new_id(setup), player, player, ("artifact",))
        setup, sources = with_permanents(setup, added), [added.id]
    source = pick(draw, sources)
    return setup, (
        a.PhaseOut(player, (attachment,)),
        a.PhaseOutUntil(setup.permanent(source).controller, source, host),
        a.Destroy(player, source),
        *(a.PassTurn(),) * setup.turns_until(player),
    )


def attachment_loses_host(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26i, 704.5m, 704.5n: an attachment's host is destroyed or phases
    out, often while the attachment is phased out on its own; then turns
    pass, so the attachment phases in without its host."""
    drawn = _attachment_pair(draw, setup)
    if drawn is None:
        return setup, ()
    setup, attachment, host = drawn
    player = setup.permanent(attachment).controller
    first: tuple[a.Action, ...] = (a.PhaseOut(player, (attachment,)),) if maybe(draw) else ()
    gone = pick(draw, [a.Destroy(player, host), a.DestroyAll(player), a.PhaseOut(player, (host,))])
    return setup, (*first, gone, a.PassTurn(), a.PassTurn())


def equipment_out_loses_host(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26b, 702.26i, 702.26j: an Equipment or a Fortification (as the
    engine has them) with "whenever this becomes unattached", on a new host
    of a player's, phases out on its own; the host is destroyed while it is
    out, which does nothing to it; then turns pass up to the player's untap
    step, where it phases in unattached, triggering nothing. Else
    `attachment_loses_host`."""
    kinds = [k for k in ATTACHMENT_KINDS if k[0] != "aura" and k[1] in caps]
    if not kinds:
        return attachment_loses_host(draw, setup, caps)
    setup, made, host = new_pair(draw, setup, kinds)
    setup = with_changed(setup, replace(setup.permanent(made), abilities=("unattached",)))
    player = setup.permanent(made).controller
    turns = (a.PassTurn(),) * setup.turns_until(player)
    return setup, (a.PhaseOut(player, (made,)), a.Destroy(player, host), *turns)


def attachment_alone_or_host_lost(draw: st.DrawFn, setup: Setup, caps: Caps) -> Planned:
    """702.26i: an attachment phases out on its own and its host stays (or
    phases out and back in meanwhile), so it phases in attached to it (an
    Aura, Equipment or Fortification, as the engine has them, on a new host
    of a player's); or `attachment_loses_host`."""
    kinds = [k for k in ATTACHMENT_KINDS if k[1] in caps]
    if not kinds or maybe(draw):
        return attachment_loses_host(draw, setup, caps)
    setup, made, host = new_pair(draw, setup, kinds)
    player = setup.permanent(made).controller
    away: tuple[a.Action, ...] = ()
    if {C.PHASE_OUT_UNTIL, C.DESTROY} <= set(caps) and maybe(draw):
        # Meanwhile the host phases out and back in: the same object still
        # (702.26d), so the attachment finds it.
        source = Permanent(new_id(setup), player, player, ("artifact",))
        setup = with_permanents(setup, source)
        away = (a.PhaseOutUntil(player, source.id, host), a.Destroy(player, source.id))
    turns = (a.PassTurn(),) * setup.turns_until(player)
    return setup, (a.PhaseOut(player, (made,)), *away, *turns)


def new_pair(
    draw: st.DrawFn, setup: Setup, kinds: Sequence[tuple[str, C, str, str]]
) -> tuple[Setup, str, str]:
    """`setup` with a new host and an attachment of one of `kinds`
    (`ATTACHMENT_KINDS`) on it, both a player's; and their ids."""
    attachment, _, card_type, host_type = pick(draw, kinds)
    player = integer(draw, 0, setup.players - 1)
    size = 1 if host_type == "creature" else None
    host = Permanent(new_id(setup), player, player, (host_type,), power=size, toughness=size)
    made = Permanent(
        new_id(setup, 1), player, player, (card_type,), attachment=attachment, attached_to=host.id
    )
    return with_permanents(setup, host, made), made.id, host.id
