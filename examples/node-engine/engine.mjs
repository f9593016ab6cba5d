#!/usr/bin/env node
// A phasing engine speaking the phasecert engine protocol (docs/protocol.md)
// on stdin and stdout: one JSON request a line in, one JSON reply a line out.
// Run it under phasecert with `--engine stdio:@examples/node-engine/engine.json`.

import { createInterface } from "node:readline";

import { Game } from "./game.mjs";
import { observe } from "./observe.mjs";

const PROTOCOL = 1;

const CAPABILITIES = [
  "activated-abilities",
  "anthem",
  "auras",
  "choices",
  "combat",
  "count-creatures",
  "counters",
  "destroy",
  "equipment",
  "fortifications",
  "leave-game",
  "multiplayer",
  "phase-out-all",
  "phase-out-until",
  "phase-triggers",
  "player-auras",
  "pt-boost",
  "redundant-phasing",
  "skip-untap",
  "targeting",
  "tokens",
  "triggers",
];

// What this engine doesn't model, and why: phasecert prints the reason next
// to every "not applicable" it causes.
const MISSING = {
  "control-change": "no control-changing effects: every permanent is controlled by its owner",
  "control-for-as-long-as": "no control-changing effects, so no 'for as long as you control'",
  "control-for-as-long-as-other": "no control-changing effects, so no 'for as long as you control'",
  "default-controller": "every permanent enters the battlefield under its owner's control",
  "phased-out-under-other": "control never changes, so nothing phases out under a non-controller",
  "player-protection": "players have no protection: only the phasing part of Teferi's Protection",
  "life-lock": "life totals can always change: only the phasing part of Teferi's Protection",
  "life-spells": "no spells that gain, lose, set or exchange life",
  "life-costs": "no spells with life costs",
  "life-replacement": "no replacement effects",
  "loss-replacement": "no replacement effects",
  "player-damage": "no spells that deal damage",
  infect: "no spells that deal damage, so none with infect",
  discard: "players have no hands: nobody discards",
  "multi-target": "no spells with several targets",
  "cast-auras": "no Aura spells: Auras are only set up",
  "damage-marked": "no spell or creature deals damage to creatures",
  "mana-abilities": "spells are free and lands have no mana abilities",
  blocking: "combat has attackers only: nobody blocks",
  "legend-rule": "permanents have no names or supertypes",
  history: "it keeps no record of what entered the battlefield this turn",
  "upkeep-triggers": "its triggered abilities only gain life; none taps its permanent",
  "stacked-responses": "a spell resolves as it is cast: nothing responds to a response while it waits",
};

const HELLO = {
  protocol: PROTOCOL,
  engine: {
    name: "node-example",
    version: "1.0.0",
    capabilities: CAPABILITIES,
    language: "JavaScript (Node.js)",
    missing: Object.entries(MISSING).map(([capability, reason]) => ({ capability, reason })),
  },
};

// Anything printed with console.log would corrupt the protocol on stdout:
// send it to stderr, where phasecert shows it when something goes wrong.
console.log = console.error;

let game = null;

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

/** The answer to one request (its parsed JSON). */
function answer(request) {
  const { id } = request;
  switch (request.cmd) {
    case "hello":
      return { id, ...HELLO };
    case "start": {
      const unsupported = cannotSetUp(request.setup);
      if (unsupported) return { id, error: `can't set up this position: ${unsupported}` };
      game = new Game(request.setup);
      return { id, observation: observe(game.state) };
    }
    case "perform": {
      if (game === null) return { id, error: "perform before any start" };
      const refused = game.perform(request.action);
      return { id, observation: observe(game.state, refused) };
    }
    default:
      return { id, error: `unknown cmd ${JSON.stringify(request.cmd)}` };
  }
}

/** Why the setup needs something this engine declared missing, or null.
 * phasecert never sends one, but an engine must not fake a position. */
function cannotSetUp(setup) {
  for (const p of setup.permanents ?? []) {
    if ((p.owner ?? 0) !== (p.controller ?? 0)) return `${p.id} is controlled by a non-owner`;
    if ((p.default_controller ?? p.owner ?? 0) !== (p.owner ?? 0)) {
      return `${p.id} entered the battlefield under another player than its owner`;
    }
    if (p.phased_out && (p.phased_out.under ?? 0) !== (p.controller ?? 0)) {
      return `${p.id} phased out under another player than its controller`;
    }
  }
  const effect = (setup.effects ?? []).find(
    (e) => e.type === "ControlEffect" || e.duration?.kind === "as_long_as_you_control",
  );
  return effect ? `a ${effect.type} with duration ${effect.duration?.kind ?? "indefinitely"}` : null;
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    reply({ id: 0, error: `bad request: not JSON (${e.message})` });
    continue;
  }
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    reply({ id: 0, error: "bad request: not a JSON object" });
    continue;
  }
  if (!Number.isInteger(request.id)) {
    reply({ id: 0, error: "bad request: no integer id" });
    continue;
  }
  if (request.cmd === "stop") {
    // Answer, then exit once the answer is written.
    process.stdout.write(JSON.stringify({ id: request.id, stopped: true }) + "\n", () =>
      process.exit(0),
    );
    break;
  }
  try {
    reply(answer(request));
  } catch (e) {
    // A bug of the engine: report it on this request, keep serving.
    console.error(e.stack);
    reply({ id: request.id, error: `${e.name}: ${e.message}` });
  }
}
