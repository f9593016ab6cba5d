"""The `phasecert` command: certify an engine, replay a counterexample, list
rules and engines, merge shard reports, benchmark an engine's untap step.

Exit codes:
  0  the engine conforms, or has no regression against the baseline
     (replay: the counterexample no longer fails)
  1  failures, or regressions against the baseline (replay: it still fails;
     bench: slower than --compare-fail allows, or a board size failed)
  2  usage or setup error (unknown engine or rule, bad file), or a failure
     that is not the engine's (the example database went away): one line
     on stderr
  130  interrupted (Ctrl-C), 143 terminated (SIGTERM): the files of a
     report are all old or all new, never half-written
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType

# Only the standard library above: a Ctrl-C while the heavy modules load
# (Hypothesis, pytest) must end with the one-line message of main().

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143
_STOPPED = "no report file was left half-written"


class Terminated(Exception):
    """SIGTERM arrived (a CI job cancelled, a timeout)."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, and exit code 2 like the rest."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"phasecert: error: {message} (see: {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    from conformance.checking import PROFILES
    from conformance.cli.checks import megabytes, seconds, workers
    from conformance.cli.isolation import DEFAULT_MEMORY_MB
    from conformance.editions import CURRENT, EDITIONS
    from conformance.running import DEFAULT_TIMEOUT

    top = _Parser(prog="phasecert", description=__doc__.split("\n\n")[0])
    top.epilog = "Exit codes: 0 conforms, 1 failures or regressions, 2 usage error."
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("certify", help="run the suite on an engine and write its reports")
    run.add_argument("--engine", required=True, help="engine name (see: phasecert engines)")
    run.add_argument(
        "--profile",
        default="ci",
        choices=sorted(PROFILES),
        help="ci: derandomized (default); certify: thorough; dev: fast",
    )
    run.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="ID",
        help="only the properties of this rule (repeatable): a quick check, not a "
        "certification, as the comparison with the reference engine, which covers every "
        "rule, runs only without --rule",
    )
    run.add_argument(
        "--edition",
        default=CURRENT,
        choices=EDITIONS,
        help="edition of the phasing rules (default current); the engine must declare it",
    )
    run.add_argument(
        "--out", metavar="DIR", help="report directory (default phasecert-reports/<engine>)"
    )
    run.add_argument("--seed", type=int, help="Hypothesis seed, for a reproducible run")
    run.add_argument("--shard", metavar="I/N", help="run only shard I of N, e.g. 2/4")
    run.add_argument(
        "-n", dest="workers", type=workers, metavar="N|auto", help="parallel workers (xdist)"
    )
    run.add_argument(
        "--example-db", metavar="URL|DIR", help="Hypothesis example DB: redis://HOST:PORT/N or DIR"
    )
    run.add_argument("--engine-timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="S")
    run.add_argument(
        "--engine-memory",
        type=megabytes,
        default=DEFAULT_MEMORY_MB,
        metavar="MB",
        help=f"memory the engine may take (default {DEFAULT_MEMORY_MB})",
    )
    run.add_argument(
        "--isolate",
        action="store_true",
        help="run a Python engine in its own process, over the engine protocol "
        "(short for --engine stdio:'phasecert serve --engine NAME')",
    )
    run.add_argument(
        "--validate-protocol",
        action="store_true",
        help="check every message of a stdio: engine against schemas/protocol.schema.json",
    )
    _baseline_options(run)

    replay = sub.add_parser("replay", help="re-run one stored counterexample")
    replay.add_argument("file", help="a scenario file, e.g. from reports/<engine>/counterexamples")
    replay.add_argument("--engine", required=True)
    replay.add_argument("--property", help="property to check (default: from the file name)")
    replay.add_argument(
        "--edition",
        default=CURRENT,
        choices=EDITIONS,
        help="edition of the rules (default current)",
    )
    replay.add_argument("--engine-timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="S")

    serve = sub.add_parser(
        "serve", help="serve an installed adapter over the engine protocol on stdin/stdout"
    )
    serve.add_argument("--engine", required=True, help="engine name (see: phasecert engines)")

    check = sub.add_parser(
        "check-engine", help="smoke-test an engine on six fixed scenarios before certifying it"
    )
    check.add_argument("--engine", required=True, help="engine name or stdio:SPEC")
    check.add_argument("--engine-timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="S")

    rules = sub.add_parser("rules", help="the rule catalog and the properties covering each rule")
    rules.add_argument("--edition", default=CURRENT, choices=EDITIONS, help="default current")
    sub.add_parser("engines", help="the engine adapters found, with version and capabilities")

    from conformance.detection import arguments as detection_arguments

    detection_arguments(
        sub.add_parser(
            "detection",
            help="count the examples to each mutant's first failure (ci and random seeds) "
            "and write the table",
        )
    )

    merge = sub.add_parser("merge", help="combine shard reports of one engine into one")
    merge.add_argument("reports", nargs="+", metavar="REPORT", help="shard report.json files")
    merge.add_argument(
        "--out", metavar="DIR", help="report directory (default phasecert-reports/<engine>)"
    )
    _baseline_options(merge)

    from conformance.cli.benching import add_parser as add_bench

    add_bench(sub)
    return top


def _baseline_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--matrix",
        metavar="DIR",
        help="also write index.html and index.md, the rules x engines matrix of every "
        "report under DIR (e.g. reports)",
    )
    command.add_argument("--baseline", metavar="FILE", help="expected statuses; gate on new ones")
    command.add_argument(
        "--update-baseline", action="store_true", help="rewrite --baseline FILE from this run"
    )


def main(argv: Sequence[str] | None = None) -> int:
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print(f"phasecert: interrupted; {_STOPPED}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print(f"phasecert: terminated (SIGTERM); {_STOPPED}", file=sys.stderr)
        return EXIT_TERMINATED
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _one_line(error: Exception) -> str:
    """An error message made safe for the terminal, on one line."""
    from conformance.escaping import cut, for_terminal

    return " ".join(for_terminal(cut(str(error), 1000)).split())


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _main(argv: Sequence[str] | None) -> int:
    from adapters.discovery import EngineNotFound
    from conformance import detection
    from conformance.baseline import BaselineError
    from conformance.cli import (
        benching,
        certify,
        engine_check,
        listing,
        merging,
        replaying,
        serving,
    )
    from conformance.cli.isolation import InfrastructureFailure
    from conformance.corpus import CorpusError

    args = parser().parse_args(argv)
    commands = {
        "certify": certify.certify,
        "bench": benching.bench,
        "merge": merging.merge,
        "replay": replaying.replay,
        "rules": lambda a: listing.list_rules(a.edition),
        "engines": lambda _: listing.list_engines(),
        "serve": lambda a: serving.serve_stdio(a.engine),
        "check-engine": lambda a: engine_check.check_engine(a.engine, timeout=a.engine_timeout),
        "detection": detection.run,
    }
    try:
        return commands[args.command](args)
    except (certify.UsageFailure, EngineNotFound, BaselineError, CorpusError) as e:
        print(f"phasecert: error: {_one_line(e)}", file=sys.stderr)
        return EXIT_USAGE
    except InfrastructureFailure as e:
        what = _one_line(e)
        print(f"phasecert: error: the run stopped, no report written: {what}", file=sys.stderr)
        return EXIT_USAGE
    except certify.Interrupted:
        raise KeyboardInterrupt from None
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped reading: not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
