"""Baselines: parsing (errors name the line), gating, and rewriting."""

from __future__ import annotations

import pytest

from conformance.baseline import (
    Baseline,
    BaselineError,
    check_known,
    format_baseline,
    gate,
    parse_baseline,
    updated,
)
from conformance.results import PropertyResult


def result(name: str, status: str) -> PropertyResult:
    return PropertyResult(name, ("702.26a",), status)  # type: ignore[arg-type]


def test_parses_statuses_and_comments() -> None:
    text = "# header\n\nuntap: fail  # 702.26a\ntokens: engine-error\n"
    assert parse_baseline(text, "b.txt").expected == {"untap": "fail", "tokens": "engine-error"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ok: fail\nno colon here\n", "b.txt:2: expected 'property: status'"),
        ("# c\nx: failing\n", "b.txt:2: unknown status 'failing' for x"),
        ("x: fail\n\nx: pass\n", "b.txt:3: x is listed twice (first on line 1)"),
        (": fail\n", "b.txt:1: expected 'property: status'"),
    ],
)
def test_malformed_lines_are_named(text: str, message: str) -> None:
    with pytest.raises(BaselineError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        parse_baseline(text, "b.txt")


def test_unknown_property_names_its_line() -> None:
    baseline = parse_baseline("# c\nghost: fail\n", "b.txt")
    with pytest.raises(BaselineError, match=r"^b.txt:2: no property named 'ghost'"):
        check_known(baseline, {"untap"}, "b.txt")


def test_gate_fails_only_on_new_failures_and_lists_improvements() -> None:
    expected = {"known": "fail", "fixed": "fail", "erring": "fail"}
    verdict = gate(
        [
            result("known", "fail"),
            result("fixed", "pass"),
            result("erring", "engine-error"),
            result("new", "fail"),
            result("fine", "pass"),
        ],
        expected,
    )
    assert [r.property for r in verdict.regressions] == ["erring", "new"]
    assert verdict.now_passing == ("fixed",)
    assert not verdict.ok


def test_no_baseline_means_every_failure_counts() -> None:
    assert not gate([result("a", "fail")], {}).ok
    assert gate([result("a", "pass"), result("b", "not-applicable")], {}).ok


def test_update_keeps_properties_not_run_and_round_trips() -> None:
    new = updated(
        {"other_shard": "fail", "fixed": "fail"}, [result("fixed", "pass"), result("x", "fail")]
    )
    assert new == {"other_shard": "fail", "x": "fail"}
    text = format_baseline(new, "my-engine", {"x": ("702.26a",)})
    assert "x: fail  # 702.26a" in text
    assert parse_baseline(text, "b").expected == new
    assert Baseline().expected == {}
