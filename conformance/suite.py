"""The conformance suite as pytest tests: one test per property, plus the
stateful comparison with the reference engine.

Run it from a checkout (`pytest --engine NAME`) or anywhere phasecert is
installed (`pytest --pyargs conformance.suite --engine NAME`).
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from conformance.agreement_results import COMPARISON
from conformance.checking import failure_report, run_property
from conformance.corpus import ItemCorpus
from conformance.differential import OutsideTheRules, run_agreement
from conformance.properties.registry import Property
from conformance.results import PropertyResult


def test_property(
    phasecert_property: Property,
    phasecert_engine: Any,
    phasecert_settings: Any,
    phasecert_timeout: float,
    phasecert_results: list[PropertyResult],
    phasecert_corpus: ItemCorpus,
    phasecert_reference: Any,
) -> None:
    result = run_property(
        phasecert_property,
        phasecert_engine,
        using=phasecert_settings,
        timeout=phasecert_timeout,
        replay=phasecert_corpus.replay_for(phasecert_property.name),
        reference=phasecert_reference,
    )
    _conclude(result, phasecert_results, phasecert_corpus)


def test_agrees_with_reference(
    phasecert_engine: Any,
    phasecert_settings: Any,
    phasecert_timeout: float,
    phasecert_results: list[PropertyResult],
    phasecert_corpus: ItemCorpus,
    phasecert_reference: Any,
) -> None:
    """Step by step, the engine shows what the reference engine (of the
    edition certified) shows, on every observable of its capabilities."""
    result = run_agreement(
        phasecert_engine,
        using=phasecert_settings,
        timeout=phasecert_timeout,
        replay=phasecert_corpus.replay_for(COMPARISON),
        reference=phasecert_reference,
    )
    if result.status == "pass" and result.message:
        warnings.warn(OutsideTheRules(result.message), stacklevel=1)
    _conclude(result, phasecert_results, phasecert_corpus)


def _conclude(result: PropertyResult, results: list[PropertyResult], corpus: ItemCorpus) -> None:
    """Record `result` (for reports and the corpus) and end the test with it."""
    results.append(result)
    corpus.keep(result)
    if result.status == "not-applicable":
        pytest.skip(result.message)
    if result.status == "not-exercised":
        pytest.fail(result.message, pytrace=False)
    if result.status != "pass":
        pytest.fail(failure_report(result), pytrace=False)
