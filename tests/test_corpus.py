"""The counterexample corpus: failures are kept once, read back in a fixed
order, and a broken corpus file is a setup error naming it."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest

from conformance.agreement_results import COMPARISON
from conformance.codec import dumps, to_data
from conformance.corpus import CorpusError, counterexample_name, decode_result, load_corpus
from conformance.results import PropertyResult
from conformance.scenario import Scenario
from conformance.setup import Permanent, Setup


def scenario(pid: str) -> Scenario:
    creature = Permanent(pid, phasing=1, power=2, toughness=2)
    return Scenario(Setup(players=2, permanents=(creature,)))


def failure(name: str, s: Scenario) -> PropertyResult:
    return PropertyResult(name, ("702.26a",), "fail", 3, "boom", to_data(s))


def test_failures_are_kept_once_and_replayed_in_order(tmp_path: Path) -> None:
    corpus = load_corpus(tmp_path / "cx")
    assert corpus.replay_for("untap") == ()
    paths = [corpus.keep(failure("untap", scenario(p))) for p in ("p1", "p2", "p1")]
    assert paths[0] == paths[2]
    assert corpus.keep(PropertyResult("untap", ("702.26a",), "pass")) == []
    reread = load_corpus(tmp_path / "cx")
    names = sorted(p.name for p in (tmp_path / "cx").iterdir())
    assert len(names) == 2 and all(n.startswith("untap.") for n in names)
    assert len(reread.replay_for("untap")) == 2
    assert reread.replay_for("untap") == load_corpus(tmp_path / "cx").replay_for("untap")
    assert not list((tmp_path / "cx").glob(".*.tmp"))


def test_the_comparisons_further_differences_are_kept_too(tmp_path: Path) -> None:
    """Each kind of difference the comparison found is replayed on the next
    run, not only the first: else a later run may meet other kinds first
    and blame other rules."""
    corpus = load_corpus(tmp_path / "cx")
    found = failure(COMPARISON, scenario("p1"))
    found = replace(found, further=(to_data(scenario("p2")), to_data(scenario("p3"))))
    assert len(corpus.keep(found)) == 3
    assert load_corpus(tmp_path / "cx").replay_for(COMPARISON) == tuple(
        sorted(
            (scenario(p) for p in ("p1", "p2", "p3")),
            key=lambda s: counterexample_name(COMPARISON, s),
        )
    )


def test_broken_corpus_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "untap.bad.json").write_text('{"setup": {"players": "two"}}')
    with pytest.raises(CorpusError, match=r"untap.bad.json: \$.setup.players: expected an integer"):
        load_corpus(tmp_path)


def test_an_illegal_corpus_file_is_the_scenarios_fault(tmp_path: Path) -> None:
    """Not replayed (where the engine would take the blame), nor copied."""
    illegal = Scenario(Setup(players=1000, permanents=(Permanent("a", owner=-5),)))
    (tmp_path / "untap.abc.json").write_text(dumps(illegal))
    with pytest.raises(CorpusError, match=r"untap.abc.json: illegal setup: players must be 2 to 4"):
        load_corpus(tmp_path)


def test_a_result_crosses_from_a_worker_whole() -> None:
    """What an xdist worker or an isolated run sends back decodes to the
    same result, every field set (a field left out is lost from reports)."""
    sent = PropertyResult(
        COMPARISON,
        ("702.26a",),
        "fail",
        examples=3,
        message="boom",
        counterexample=to_data(scenario("p1")),
        missing=("tokens",),
        duration=1.5,
        exercised=2,
        refusals=4,
        further=(to_data(scenario("p2")),),
    )
    assert all(getattr(sent, f.name) != f.default for f in fields(PropertyResult))
    assert decode_result(to_data(sent)) == sent
