// Phasing itself (CR 702.26): the untap step's phasing event, phasing out
// (directly, and indirectly for attachments) and phasing in.

/**
 * 502.1, 702.26a: the untap step of `player`. Phasing comes first, then
 * untapping; 702.26m: a skipped untap step has no phasing event at all
 * (R2017-skip-untap: what is phased out waits for the next real one).
 */
export function untapStep(state, player) {
  if (state.skips[player] > 0) {
    state.skips[player] -= 1;
    return;
  }
  phasingEvent(state, player);
  // 502.3: the player's phased-in permanents untap, including those that
  // just phased in (502.1); phased-out ones don't exist (702.26b).
  for (const p of state.permanents.values()) {
    if (p.controller === player && p.phasedIn) p.tapped = false;
  }
}

/**
 * 702.26a: `player`'s phased-in permanents with phasing phase out and, at
 * the same time, what phased out directly under `player` phases in. Both
 * sets are chosen before either happens, so nothing does both in one step.
 * 702.26p: any number of phasing instances phase it out once.
 */
export function phasingEvent(state, player) {
  const goingOut = [];
  const comingIn = [];
  for (const p of state.inPlay()) {
    if (p.phasedOut === null) {
      if (p.phasing > 0 && p.controller === player) goingOut.push(p);
    } else if (
      p.phasedOut.cause === "direct" &&
      p.phasedOut.under === player &&
      p.phasedOut.until === null
    ) {
      // 702.26g: indirectly phased-out ones come back with their host only;
      // 610.4: "phases out until" ones when their source leaves.
      comingIn.push(p);
    }
  }
  phaseOut(state, goingOut);
  phaseIn(state, comingIn);
}

/**
 * Phase `roots` out directly, and whatever is attached to them, at any
 * depth, indirectly (702.26g). Something phasing out both ways at once
 * phases out indirectly (702.26h): an attachment with phasing whose host
 * also phases out. Each remembers whose control it phased out under, since
 * that player's untap step phases it in (702.26a), or, for "phases out until
 * [source] leaves the battlefield", the source (610.4; only the permanent
 * phased out directly waits for it, its attachments come back with it).
 */
export function phaseOut(state, roots, until = null) {
  const group = new Map();
  const pending = roots.filter((p) => p.phasedIn);
  while (pending.length > 0) {
    const p = pending.pop();
    if (group.has(p.id)) continue;
    group.set(p.id, p);
    pending.push(...state.attachmentsOf(p.id).filter((a) => a.phasedIn));
  }
  for (const p of group.values()) {
    const cause = group.has(p.attachedTo) ? "indirect" : "direct";
    p.phasedOut = { cause, under: p.controller, until: cause === "direct" ? until : null };
    p.attacking = false; // 506.4: a permanent that phases out is removed from combat
    state.log("phased_out", p.id, cause);
    state.phaseTrigger(p, "phases_out");
  }
}

/**
 * Phase `roots` in, each with what phased out indirectly with it (702.26g,
 * R2017-attached). Then each directly phased-out attachment finds its object
 * again, if it is still on the battlefield and phased in, or phases in
 * unattached (702.26i); state-based actions deal with an unattached Aura
 * later (704.5m). 702.26j: none of this is "becoming (un)attached", so no
 * event is logged for it.
 */
export function phaseIn(state, roots) {
  const back = roots.filter((p) => p.onBattlefield && p.phasedOut !== null);
  for (const p of back) withAttachments(state, p);
  for (const p of back) {
    if (p.attachedTo !== null && !canStayAttached(state, p)) p.attachedTo = null;
  }
}

function withAttachments(state, p) {
  p.phasedOut = null;
  state.log("phased_in", p.id);
  state.phaseTrigger(p, "phases_in");
  for (const a of state.attachmentsOf(p.id)) {
    if (a.phasedOut !== null && a.phasedOut.cause === "indirect") withAttachments(state, a);
  }
}

/** 702.26i: its object is still there, phased in, and a legal one (301.5:
 * Equipment on a creature, 303.4: Fortification on a land); a player it
 * enchants is still in the game. */
function canStayAttached(state, p) {
  if (typeof p.attachedTo === "number") return state.inGame[p.attachedTo];
  const host = state.permanents.get(p.attachedTo);
  return host !== undefined && host.phasedIn && canAttach(p, host);
}

export function canAttach(p, host) {
  if (p.attachment === "equipment") return host.isCreature;
  if (p.attachment === "fortification") return host.types.includes("land");
  return true;
}

/** 610.4: what phased out "until [source] leaves the battlefield" phases in
 * as soon as it does (R2017-until-leaves: the source phasing out is not
 * leaving, so that never releases anything). */
export function releaseUntil(state, source) {
  phaseIn(
    state,
    state.inPlay().filter((p) => p.phasedOut !== null && p.phasedOut.until === source.id),
  );
}
