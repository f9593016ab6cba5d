// Observations in the suite's JSON shape (conformance/observation.py):
// fields left at their default are omitted, as phasecert itself writes them.

import { STARTING_LIFE } from "./model.mjs";

/** The game now, and the events since the last observation (then cleared). */
export function observe(state, refused = null) {
  const events = state.events.map(({ kind, subject, detail }) =>
    detail ? { kind, subject, detail } : { kind, subject },
  );
  state.events = [];
  const observation = {
    turn: state.turn,
    active: state.active,
    players: state.life.map((life, index) =>
      player(index, state.inGame[index], life, state.drawn[index]),
    ),
    permanents: [...state.permanents.values()].map((p) => view(state, p)),
  };
  if (events.length > 0) observation.events = events;
  if (refused !== null) observation.refused = refused;
  return observation;
}

function player(index, inGame, life, drawn) {
  const shown = { index };
  if (!inGame) shown.in_game = false;
  if (life !== STARTING_LIFE) shown.life = life;
  if (drawn !== 0) shown.cards_drawn = drawn;
  return shown;
}

/** One permanent: off the battlefield only its zone; phased-out ones with
 * how they phased out, and power/toughness only while phased in. */
function view(state, p) {
  if (!p.onBattlefield) return { id: p.id, zone: p.zone };
  const shown = { id: p.id, zone: "battlefield" };
  if (p.phasedOut !== null) {
    shown.phased_out = true;
    shown.cause = p.phasedOut.cause;
  }
  shown.controller = p.controller;
  if (p.tapped) shown.tapped = true;
  const counters = [...p.counters].filter(([, n]) => n > 0).sort(byKind);
  if (counters.length > 0) shown.counters = counters;
  if (p.attachedTo !== null) shown.attached_to = p.attachedTo;
  const pt = state.powerToughness(p);
  if (pt !== null) [shown.power, shown.toughness] = pt;
  if (p.attacking) shown.attacking = true;
  if (p.chosen !== null) shown.chosen = p.chosen;
  return shown;
}

function byKind([a], [b]) {
  return a < b ? -1 : a > b ? 1 : 0;
}
