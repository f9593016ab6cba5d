"""An adapter's optional `missing` mapping: why it lacks a capability
(adapters.protocol), checked when the engine is loaded."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from adapters.discovery import EngineNotFound, load_engine
from adapters.protocol import missing_capabilities
from conformance.capabilities import Capability
from conformance.checking import run_property
from conformance.properties import REGISTRY

ADAPTER = """
from adapters.reference import ReferenceEngine
from conformance.capabilities import Capability


class Engine:
    name = "partial"
    version = "1"
    capabilities = ReferenceEngine().capabilities - {{Capability.TOKENS}}
    missing = {missing}

    def start(self, setup):
        return ReferenceEngine().start(setup)
"""


def adapter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, missing: str) -> str:
    (tmp_path / f"{name}.py").write_text(ADAPTER.format(missing=missing))
    monkeypatch.syspath_prepend(str(tmp_path))
    return f"{name}:Engine"


def test_reasons_reach_not_applicable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_engine(adapter(tmp_path, monkeypatch, "partial_ok", '{"tokens": "no tokens"}'))
    assert missing_capabilities(engine) == {Capability.TOKENS: "no tokens"}
    needing = next(p for p in REGISTRY.values() if Capability.TOKENS in p.needs)
    result = run_property(needing, engine)
    assert result.status == "not-applicable"
    assert result.message == "not applicable: needs tokens (no tokens)"


def test_a_reason_for_a_capability_it_has_is_ignored() -> None:
    engine = SimpleNamespace(capabilities={Capability.TOKENS}, missing={"tokens": "stale note"})
    assert missing_capabilities(engine) == {}


@pytest.mark.parametrize(
    ("module", "missing", "message"),
    [
        ("partial_bad_key", '{"tokenz": "typo"}', "`missing` names 'tokenz', not a capability"),
        ("partial_bad_reason", '{"tokens": 3}', "`missing['tokens']` must be a reason"),
        ("partial_bad_type", '["tokens"]', "`missing` must map capabilities to reasons"),
    ],
)
def test_malformed_missing_is_named_when_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, missing: str, message: str
) -> None:
    with pytest.raises(EngineNotFound, match="can't be loaded") as error:
        load_engine(adapter(tmp_path, monkeypatch, module, missing))
    assert message in str(error.value)
