"""Detection efficiency: how many examples the suite needs to catch each mutant.

A mutant (adapters/mutants/) is a realistic bug; a property that needs
hundreds of examples to fail on it is a generator that rarely builds the
situation its rule is about, and would let a real engine's bug through
under `ci`'s budget. For every (mutant, property it must kill) this counts
the examples played up to and including the first failing one: once under
the `ci` profile exactly as certification runs it (derandomized: the same
examples the meta-tests see), and once per seed in random mode. Shrinking
is left out (`Phase.shrink`): it doesn't change which example fails first,
only how long the run takes.

    python -m conformance.detection --out reports/detection.md   # or: phasecert detection

writes a Markdown table and a JSON sidecar (`detection.json`) beside it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from hypothesis import Phase, settings
from hypothesis import seed as with_seed

from adapters.mutants import MUTANTS, mutant_engine
from adapters.protocol import Inexpressible
from adapters.reference import reference_of
from conformance.atomic import write_files_atomically
from conformance.checking import _hypothesis_test, hold, profile
from conformance.properties import in_edition
from conformance.properties.registry import Property, Violation
from conformance.running import DEFAULT_TIMEOUT, EngineError, play
from conformance.scenario import Scenario

#: The ci budget: every mutant must be caught within it, derandomized.
CI_BUDGET = profile("ci").max_examples
#: Random runs search this far, so a weak generator shows how weak it is.
SEED_BUDGET = 3 * CI_BUDGET
#: Median examples to the first failure over the seeds, at most.
MEDIAN_TARGET = 50
DEFAULT_SEEDS = 20


@dataclass(frozen=True)
class Detection:
    """Examples to the first failure of `prop` on `mutant`: derandomized
    under ci (None: not found within `CI_BUDGET`) and per seed 0, 1, ...
    (None: not found within `SEED_BUDGET`)."""

    mutant: str
    prop: str
    rule: str
    ci: int | None
    seeds: tuple[int | None, ...]

    @property
    def median(self) -> float:
        """The median over the seeds, a miss counting as infinitely many."""
        return statistics.median(float("inf") if n is None else n for n in self.seeds)

    @property
    def worst(self) -> int | None:
        return None if None in self.seeds else max(self.seeds, default=0)  # type: ignore[type-var]

    @property
    def within_budget(self) -> bool:
        """Caught within ci's budget derandomized, and quickly at the median."""
        return self.ci is not None and self.median <= MEDIAN_TARGET


def examples_to_failure(
    prop: Property, engine: Any, using: settings, reference: Any, seed: int | None = None
) -> int | None:
    """Examples `engine` plays under `using` (seeded with `seed`, if given)
    up to and including the first that fails `prop`, judged against
    `reference` (the oracle of the edition certified); None if none fails.
    The same test run_property builds, so ci's examples are the same."""
    played = 0
    first: int | None = None

    def check(scenario: Scenario) -> None:
        nonlocal played, first
        played += 1
        try:
            hold(prop, engine, play(engine, scenario, DEFAULT_TIMEOUT), reference)
        except (Violation, EngineError):
            if first is None:
                first = played
            raise

    unshrunk = settings(using, phases=[p for p in using.phases if p is not Phase.shrink])
    test = _hypothesis_test(prop, engine, check, unshrunk)
    if seed is not None:
        test = with_seed(seed)(test)
    # The failure is counted in check; Hypothesis re-raises it, unshrunk.
    with contextlib.suppress(Violation, EngineError, Inexpressible):
        test()
    return first


def measure(mutant: str, prop: str, seeds: int = DEFAULT_SEEDS) -> Detection:
    """The detection of `prop` on `mutant`: ci derandomized, then `seeds`
    random runs. A mutant of an older edition is judged under that edition,
    against its oracle, as the meta-tests judge it."""
    engine = mutant_engine(mutant)
    edition = MUTANTS[mutant].edition
    judged, oracle = in_edition(edition)[prop], reference_of(edition)
    ci = profile("ci")
    random = settings(ci, derandomize=False, database=None, max_examples=SEED_BUDGET)
    return Detection(
        mutant,
        prop,
        MUTANTS[mutant].breaks,
        examples_to_failure(judged, engine, ci, oracle),
        tuple(examples_to_failure(judged, engine, random, oracle, s) for s in range(seeds)),
    )


def kills(mutants: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(mutant, property) for every property each mutant must kill; all
    mutants if none named."""
    names = list(mutants) or list(MUTANTS)
    for name in names:
        mutant_engine(name)  # EngineNotFound names the mutants there are
    return [(n, p) for n in names for p in MUTANTS[n].kills]


def measure_all(pairs: Sequence[tuple[str, str]], seeds: int, jobs: int) -> list[Detection]:
    if jobs <= 1:
        return [measure(m, p, seeds) for m, p in pairs]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(measure, *zip(*pairs, strict=True), [seeds] * len(pairs)))


def _count(n: int | None, budget: int) -> str:
    return f"> {budget}" if n is None else str(n)


def markdown(rows: Sequence[Detection], seeds: int) -> str:
    within = sum(r.within_budget for r in rows)
    lines = [
        "# Detection efficiency: examples to each mutant's first failure",
        "",
        "Generated by `python -m conformance.detection --out reports/detection.md`"
        " (data: `detection.json`). For every mutant and property it must fail:"
        f" the examples played up to the first failure under `ci` (derandomized, the"
        f" meta-tests' examples; budget {CI_BUDGET}) and over {seeds} random seeds"
        f" (0 to {seeds - 1}, searching up to {SEED_BUDGET}). A mutant is found in budget"
        f" when ci finds it and the median is at most {MEDIAN_TARGET}.",
        "",
        f"**{within} of {len(rows)} found in budget.**",
        "",
        "| mutant | property | rule | ci | median | max | in budget |",
        "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        median = "∞" if r.median == float("inf") else f"{r.median:g}"
        lines.append(
            f"| {r.mutant} | `{r.prop}` | {r.rule} | {_count(r.ci, CI_BUDGET)} | {median}"
            f" | {_count(r.worst, SEED_BUDGET)} | {'yes' if r.within_budget else '**no**'} |"
        )
    return "\n".join(lines) + "\n"


def write(rows: Sequence[Detection], seeds: int, out: Path) -> None:
    """The table at `out` and its JSON sidecar beside it, written together."""
    data = {
        "ci_budget": CI_BUDGET,
        "seed_budget": SEED_BUDGET,
        "median_target": MEDIAN_TARGET,
        "seeds": seeds,
        "detections": [
            # JSON has no infinity: a median of misses is null.
            {**asdict(r), "median": None if r.median == float("inf") else r.median}
            for r in rows
        ],
    }
    write_files_atomically(
        {
            out: markdown(rows, seeds),
            out.with_suffix(".json"): json.dumps(data, indent=1) + "\n",
        }
    )


def _count_of(what: str, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if text.isdigit() and 1 <= int(text) <= high:
            return int(text)
        raise argparse.ArgumentTypeError(f"{text!r}: expected {what} from 1 to {high}")

    return parse


def arguments(command: argparse.ArgumentParser) -> argparse.ArgumentParser:
    command.add_argument(
        "--out", type=Path, default=Path("reports/detection.md"), help="the table (.md)"
    )
    command.add_argument(
        "--mutant", action="append", default=[], metavar="NAME", help="repeatable; default all"
    )
    command.add_argument(
        "--seeds", type=_count_of("seeds", 1000), default=DEFAULT_SEEDS, help="random runs per pair"
    )
    command.add_argument("--jobs", type=_count_of("processes", 64), default=1, help="processes")
    return command


def run(args: argparse.Namespace) -> int:
    """Measure, write the table; exit 1 if a mutant is not found in budget,
    2 on a usage error (an unknown mutant: EngineNotFound)."""
    from conformance.cli.checks import UsageFailure

    if args.out.suffix != ".md":
        raise UsageFailure(f"--out {args.out}: expected a .md file (the JSON goes beside it)")
    pairs = kills(args.mutant)
    rows = measure_all(pairs, args.seeds, args.jobs)
    write(rows, args.seeds, args.out)
    missed = [f"{r.mutant}/{r.prop}" for r in rows if not r.within_budget]
    print(f"{len(rows) - len(missed)} of {len(rows)} found in budget; table: {args.out}")
    for m in missed:
        print(f"  not in budget: {m}")
    return 1 if missed else 0


if __name__ == "__main__":
    from conformance.cli import main

    sys.exit(main(["detection", *sys.argv[1:]]))
