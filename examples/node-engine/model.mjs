// The game model: players, permanents and continuous effects, built from a
// setup (the JSON of conformance/setup.py, fields at their default omitted).

export const STARTING_LIFE = 20;

/** An action this engine won't play here; the message says why. */
export class Refused extends Error {}

/** A permanent as this engine tracks it. */
export class Permanent {
  constructor(fields) {
    this.id = fields.id;
    this.owner = fields.owner ?? 0;
    this.controller = fields.controller ?? 0;
    this.types = fields.types ?? ["creature"];
    this.attachment = fields.attachment ?? null; // "aura" | "equipment" | "fortification"
    this.token = fields.token ?? false;
    this.phasing = fields.phasing ?? 0; // instances of phasing (702.26p: any number act as one)
    this.tapped = fields.tapped ?? false;
    this.counters = new Map(fields.counters ?? []);
    this.attachedTo = fields.attached_to ?? null; // a permanent id (string) or a player (number)
    // null while phased in; else { cause: "direct" | "indirect", under: player,
    // until: the id of the permanent whose leaving phases it in (610.4), or null }
    const out = fields.phased_out;
    this.phasedOut = out
      ? { cause: out.cause ?? "direct", under: out.under ?? 0, until: out.until ?? null }
      : null;
    this.abilities = new Set(fields.abilities ?? []);
    this.power = fields.power ?? null;
    this.toughness = fields.toughness ?? null;
    this.chosen = fields.chosen ?? null; // R2017-choices: kept through phasing
    this.sick = fields.sick ?? false;
    this.zone = "battlefield"; // "battlefield" | "graveyard" | "none" (a token that left)
    this.attacking = false;
  }

  get isCreature() {
    return this.types.includes("creature");
  }

  get onBattlefield() {
    return this.zone === "battlefield";
  }

  /** 702.26b: on the battlefield and seen by the game. */
  get phasedIn() {
    return this.onBattlefield && this.phasedOut === null;
  }
}

/** The whole game: whose turn it is, the players, the permanents. */
export class GameState {
  constructor(setup) {
    this.players = setup.players ?? 2;
    this.active = setup.active ?? 0;
    this.turn = setup.turn ?? 1;
    this.inGame = Array(this.players).fill(true);
    this.life = Array(this.players).fill(STARTING_LIFE);
    this.drawn = Array(this.players).fill(0);
    this.permanents = new Map();
    for (const fields of setup.permanents ?? []) {
      this.permanents.set(fields.id, new Permanent(fields));
    }
    this.skips = Array(this.players).fill(0); // untap steps each player will skip (702.26m)
    this.boosts = []; // { targets: Set, controller, power, toughness, duration }
    for (const effect of setup.effects ?? []) {
      if (effect.type === "SkipUntap") {
        this.skips[effect.player] += 1;
      } else if (effect.type === "BoostEffect") {
        this.boosts.push({
          targets: new Set(effect.targets),
          controller: effect.controller,
          power: effect.power ?? 1,
          toughness: effect.toughness ?? 1,
          // Defaults nest: a BoostEffect without a duration lasts until end
          // of turn, but a duration without a kind is "indefinitely".
          duration: effect.duration === undefined ? "end_of_turn" : (effect.duration.kind ?? "indefinitely"),
        });
      }
    }
    this.attacked = false; // attackers were declared this turn
    this.defender = null; // the player they attack
    this.events = []; // what happened since the last observation
    this.triggers = []; // triggered abilities waiting to resolve: { source, kind, controller }
  }

  log(kind, subject, detail = "") {
    this.events.push({ kind, subject, detail });
  }

  /** 603.2: `p`'s ability of `kind` triggers, if it has one; 702.26b: not
   * while it is phased out (R2017-nonexistent, R2017-no-etb-ltb). */
  trigger(p, kind) {
    if (p.phasedIn) this.phaseTrigger(p, kind);
  }

  /** 603.10b: "whenever this phases in/out" abilities name phasing, so they
   * trigger though the permanent is (or was) phased out. */
  phaseTrigger(p, kind) {
    if (p.abilities.has(kind)) this.triggers.push({ source: p.id, kind, controller: p.controller });
  }

  inPlay() {
    return [...this.permanents.values()].filter((p) => p.onBattlefield);
  }

  phasedIn() {
    return [...this.permanents.values()].filter((p) => p.phasedIn);
  }

  attachmentsOf(hostId) {
    return this.inPlay().filter((p) => p.attachedTo === hostId);
  }

  /** 613.4: base, +1/+1 counters, anthems ("other creatures you control
   * get +1/+1") and boosts that include it; only for phased-in creatures
   * (702.26b: a phased-out one has none to show, and a phased-out anthem
   * applies nothing). */
  powerToughness(p) {
    if (!p.isCreature || !p.phasedIn) return null;
    const anthems = this.phasedIn().filter(
      (s) => s !== p && s.abilities.has("anthem") && s.controller === p.controller,
    );
    const bonus = (p.counters.get("+1/+1") ?? 0) + anthems.length;
    let power = p.power + bonus;
    let toughness = p.toughness + bonus;
    for (const boost of this.boosts) {
      if (boost.targets.has(p.id)) {
        power += boost.power;
        toughness += boost.toughness;
      }
    }
    return [power, toughness];
  }
}
