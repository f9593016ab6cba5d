// Combat, as far as phasing needs it: declaring attackers, and the damage
// dealt as the turn ends (no blockers: nothing in the vocabulary blocks).

import { Refused } from "./model.mjs";

/** 508.1: the active player declares untapped creatures they control that
 * have been under their control since the turn began (302.6) attacking one
 * opponent, once a turn; 702.26b: a phased-out creature can't attack. */
export function declareAttackers(s, { player, attackers, defender }, passPriority) {
  if (!s.inGame[defender]) throw new Refused(`player ${defender} is not in the game`);
  if (player !== s.active || s.attacked || defender === player) {
    throw new Refused("attackers can't be declared now");
  }
  if (attackers.length === 0 || new Set(attackers).size !== attackers.length) {
    throw new Refused("attackers must be distinct and at least one");
  }
  const creatures = attackers.map((id) => {
    const p = s.permanents.get(id);
    if (p === undefined || !canAttack(p, player)) throw new Refused(`${id} can't attack`);
    return p;
  });
  passPriority(); // no state-based action can stop these from attacking
  for (const p of creatures) {
    p.tapped = true; // 508.1f: attacking taps it
    p.attacking = true;
  }
  s.attacked = true;
  s.defender = defender;
}

function canAttack(p, player) {
  return p.phasedIn && p.isCreature && p.controller === player && !p.tapped && !p.sick;
}

/** 510.2: attackers still in combat deal damage equal to their power to
 * the player they attack; one that phased out was removed from combat
 * (506.4) and deals none. */
export function combatDamage(s) {
  for (const p of s.phasedIn()) {
    if (p.attacking && s.inGame[s.defender]) {
      s.life[s.defender] -= Math.max(s.powerToughness(p)[0], 0);
    }
  }
}

/** 511.3: at the end of combat nothing is attacking any more. */
export function endCombat(s) {
  for (const p of s.permanents.values()) p.attacking = false;
  s.attacked = false;
}
