// A game: the turn structure and what each action does, played by this
// engine's own rules. Every action either happens or is refused with a
// reason (nothing changes then). Between actions the active player holds
// priority in their main phase, with an empty stack.

import { combatDamage, declareAttackers, endCombat } from "./combat.mjs";
import { GameState, Permanent, Refused } from "./model.mjs";
import { canAttach, phaseOut, releaseUntil, untapStep } from "./phasing.mjs";

/** What "{T}: You gain 1 life." gains. */
const TAP_LIFE = 1;
/** What each triggered ability gains its controller: distinct powers of
 * two, so the life total shows which ones resolved. */
const TRIGGER_LIFE = {
  etb: 2,
  ltb: 4,
  dies: 8,
  attached: 16,
  unattached: 32,
  phases_in: 64,
  phases_out: 128,
};

export class Game {
  constructor(setup) {
    this.state = new GameState(setup);
  }

  /** Play `action` (an action's JSON); the reason it was refused, or null. */
  perform(action) {
    const play = PLAYS[action.type];
    if (play === undefined) throw new Error(`this engine can't play ${action.type}`);
    try {
      play(this.state, action);
    } catch (e) {
      if (e instanceof Refused) return e.message;
      throw e;
    }
    // 117.3b: once it resolves, the active player receives priority; 800.4a:
    // a concession gives nobody priority (the leaver didn't hold it), so
    // what it leaves pending waits for the next action.
    if (action.type !== "Concede") receivePriority(this.state);
    return null;
  }
}

const PLAYS = {
  PassTurn: passTurn,
  // Each spell: cast with its targets (refused if one is illegal), then its
  // caster receives priority (117.3c), then it resolves, its targets checked
  // again (608.2b).
  PhaseOut: (s, { caster, targets }) => {
    checkPlayer(s, caster);
    const chosen = targets.map((id) => target(s, id));
    receivePriority(s);
    phaseOut(s, chosen.filter((p) => p.phasedIn));
  },
  // Teferi's Protection: no targets; attachments go indirectly (702.26g).
  PhaseOutAll: (s, { player }) => {
    checkPlayer(s, player);
    receivePriority(s);
    phaseOut(s, s.phasedIn().filter((p) => p.controller === player));
  },
  // 702.26b: "destroy all creatures" doesn't see phased-out ones.
  DestroyAll: (s, { caster }) => {
    checkPlayer(s, caster);
    receivePriority(s);
    destroy(s, s.phasedIn().filter((p) => p.isCreature));
  },
  Destroy: destroyTarget,
  // 702.26b: phased-out creatures aren't counted.
  DrawPerCreature: (s, { player }) => {
    checkPlayer(s, player);
    receivePriority(s);
    s.drawn[player] += creaturesOf(s, player).length;
  },
  // 702.26e: the set is fixed as the spell resolves, phased-out creatures
  // left out, even once they phase in before the turn ends.
  PumpTeam: (s, { player }) => {
    checkPlayer(s, player);
    receivePriority(s);
    const targets = new Set(creaturesOf(s, player).map((p) => p.id));
    s.boosts.push({ targets, controller: player, power: 1, toughness: 1, duration: "end_of_turn" });
  },
  PhaseOutUntil: phaseOutUntil,
  CreateToken: createToken,
  Activate: activate,
  // 117.3d: priority passes to leave the main phase for combat.
  DeclareAttackers: (s, action) => declareAttackers(s, action, () => receivePriority(s)),
  Concede: concede,
};

/** Cleanup, then the next player's turn: it begins, then its untap step.
 * Seats of players who left are passed over. */
function passTurn(s) {
  // 104.2a: with one player left, they have won; no more turns.
  if (s.inGame.filter(Boolean).length <= 1) throw new Refused("the game is over");
  // 117.3d: the active player passes priority to leave the main phase; the
  // next player receives it, and again in the combat damage step (510.3).
  receivePriority(s);
  combatDamage(s);
  receivePriority(s);
  endCombat(s);
  // 514.2: "until end of turn" effects end in the cleanup step.
  s.boosts = s.boosts.filter((b) => b.duration !== "end_of_turn");
  let player = s.active;
  do {
    player = (player + 1) % s.players;
    // 611.2a: "until your next turn" effects end as that turn begins;
    // 800.4m: for a player who left, as it would have begun.
    s.boosts = s.boosts.filter((b) => !(b.duration === "your_next_turn" && b.controller === player));
  } while (!s.inGame[player]);
  s.active = player;
  s.turn += 1;
  // 302.6: what the player has controlled since the turn began is no longer
  // summoning sick, phased-out permanents included: phasing is not a
  // control change (702.26d, R2017-haste).
  for (const p of s.permanents.values()) {
    if (p.controller === player) p.sick = false;
  }
  untapStep(s, player);
}

function checkPlayer(s, player) {
  if (!s.inGame[player]) throw new Refused(`player ${player} is not in the game`);
}

/** 702.26b, R2017-nonexistent: a phased-out permanent can't be targeted. */
function target(s, id) {
  const p = s.permanents.get(id);
  if (p === undefined || !p.phasedIn) throw new Refused(`${id} is not a legal target`);
  return p;
}

function creaturesOf(s, player) {
  return s.phasedIn().filter((p) => p.isCreature && p.controller === player);
}

/** `source`'s "Target permanent phases out until [source] leaves the
 * battlefield." (610.4), activated by its controller while it is phased in
 * (702.26b). It may target itself: phasing out is not leaving (702.26d), so
 * it then waits until it leaves with its owner (702.26k). If the source has
 * left by the time it resolves, nothing phases out (610.3c, by analogy). */
function phaseOutUntil(s, { caster, source, target: id }) {
  checkPlayer(s, caster);
  const p = s.permanents.get(source);
  if (p === undefined || !p.phasedIn || p.controller !== caster) {
    throw new Refused(`${caster} can't activate ${source}`);
  }
  const targeted = target(s, id);
  receivePriority(s);
  if (targeted.phasedIn && p.onBattlefield) phaseOut(s, [targeted], p.id);
}

/** "Destroy target permanent. Draw a card." R2017-targets: if the target
 * phases out in response, its only target is illegal and the spell does
 * nothing at all (608.2b), not even the draw. */
function destroyTarget(s, { caster, target: id, phased_out_in_response: inResponse }) {
  checkPlayer(s, caster);
  const p = target(s, id);
  receivePriority(s);
  if (inResponse) {
    phaseOut(s, [p]);
    resolveTriggers(s); // its "phases out" trigger resolves first
  }
  if (!p.phasedIn) return;
  destroy(s, [p]);
  s.drawn[caster] += 1;
}

/** 701.8: to the owner's graveyard; 702.26b: a phased-out one can't be. */
function destroy(s, permanents) {
  for (const p of permanents) {
    if (!p.phasedIn) continue;
    s.trigger(p, "ltb");
    if (p.isCreature) s.trigger(p, "dies");
    leaveBattlefield(s, p, "graveyard");
  }
}

/** A real zone change, unlike phasing (702.26d): the permanent forgets its
 * status; 704.5d: a token that leaves ceases to exist. */
function leaveBattlefield(s, p, zone) {
  p.zone = p.token ? "none" : zone;
  s.log("zone_change", p.id, `battlefield->${zone}`);
  p.attachedTo = null;
  p.tapped = false;
  p.attacking = false;
  p.counters.clear();
  releaseUntil(s, p);
}

/** 110.5: it enters phased in; 111.1: a 1/1 creature token. */
function createToken(s, { player, id, phasing = 1 }) {
  checkPlayer(s, player);
  if (s.permanents.has(id) || phasing < 0) throw new Refused(`can't create a token named ${id}`);
  receivePriority(s);
  const token = new Permanent({ id, owner: player, controller: player, token: true, phasing });
  token.power = 1;
  token.toughness = 1;
  token.sick = true;
  s.permanents.set(id, token);
  s.log("zone_change", id, "none->battlefield");
}

/** "{T}: You gain 1 life." 702.26b: not while phased out; 302.6: not by a
 * summoning-sick creature; 602.2: only by its controller, untapped. */
function activate(s, { player, source }) {
  checkPlayer(s, player);
  const p = s.permanents.get(source);
  if (
    p === undefined ||
    !p.phasedIn ||
    p.controller !== player ||
    !p.abilities.has("tap_gain_life") ||
    p.tapped ||
    (p.isCreature && p.sick)
  ) {
    throw new Refused(`${player} can't activate ${source}`);
  }
  p.tapped = true; // its cost, paid as it is activated
  receivePriority(s);
  s.life[player] += TAP_LIFE;
}

/** 104.3a: a player who isn't the active one concedes. */
function concede(s, { player }) {
  checkPlayer(s, player);
  if (player === s.active) throw new Refused("the active player can't concede in a scenario");
  leaveGame(s, player);
}

/** 800.4a: everything a player who leaves owns leaves the game at once,
 * phased-out permanents included (702.26k; this engine has no triggers to
 * leave out). No permanent of theirs can be phased out under someone else,
 * since control never changes here, so nothing waits for their turn to
 * phase in (702.26n). */
function leaveGame(s, player) {
  s.inGame[player] = false;
  const leaving = [...s.permanents.values()].filter((p) => p.owner === player && p.zone !== "none");
  const gone = leaving.filter((p) => p.onBattlefield);
  for (const p of leaving) {
    p.zone = "none";
    p.attachedTo = null;
  }
  for (const p of gone) s.log("zone_change", p.id, "battlefield->none");
  // 800.4a: their abilities waiting to resolve leave with them.
  s.triggers = s.triggers.filter((t) => t.controller !== player);
  // 610.4: only once all of it is gone is what waited for it released, so
  // a permanent that left with them doesn't phase in.
  for (const p of gone) releaseUntil(s, p);
}

/** 704.3: repeated until none applies; phased-out permanents are ignored
 * (702.26b). 704.5a: a player at 0 life or less loses. 704.5m: an Aura attached illegally or to nothing goes to its
 * owner's graveyard; 704.5n: Equipment or a Fortification attached
 * illegally becomes unattached and stays. */
function stateBasedActions(s) {
  for (;;) {
    // 704.5a: a player at 0 life or less loses, and leaves the game (800.4a).
    const losing = s.life.map((life, i) => i).filter((i) => s.inGame[i] && s.life[i] <= 0);
    for (const player of losing) leaveGame(s, player);
    const illegal = s.phasedIn().filter((p) => p.attachment !== null && !attachedLegally(s, p));
    if (losing.length === 0 && illegal.length === 0) return;
    for (const p of illegal) {
      if (p.attachment === "aura") {
        s.trigger(p, "ltb");
        leaveBattlefield(s, p, "graveyard");
      } else {
        p.attachedTo = null;
        s.log("unattached", p.id);
        s.trigger(p, "unattached");
      }
    }
  }
}

function attachedLegally(s, p) {
  if (p.attachedTo === null) return p.attachment !== "aura";
  if (typeof p.attachedTo === "number") return s.inGame[p.attachedTo];
  const host = s.permanents.get(p.attachedTo);
  return host !== undefined && host.onBattlefield && canAttach(p, host);
}

/** 603.3: triggered abilities resolve one by one, each gaining its
 * controller its life, with state-based actions checked after each; those
 * of a player who left the game don't resolve (800.4a). */
function resolveTriggers(s) {
  while (s.triggers.length > 0) {
    const { source, kind, controller } = s.triggers.shift();
    if (s.inGame[controller]) {
      s.life[controller] += TRIGGER_LIFE[kind];
      s.log("trigger", source, kind);
    }
    stateBasedActions(s);
  }
}

/** 704.3, 117.5: whenever a player would receive priority, state-based
 * actions are performed, then triggered abilities are put on the stack and
 * resolve, each resolution giving priority again. */
function receivePriority(s) {
  stateBasedActions(s);
  resolveTriggers(s);
}
