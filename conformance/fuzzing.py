"""The suite's properties as plain Hypothesis tests, for HypoFuzz.

`conformance.suite` runs each property inside `run_property`, which builds
its own `@given` test per run (profiles, exercised counts, trimming): pytest
sees plain functions there, and HypoFuzz (`hypothesis fuzz`), which fuzzes
only the `@given` tests pytest collects, finds nothing to fuzz. Here each
property of the engine is one parametrized `@given` test doing what
`run_property`'s does for one example (play, hold the trace to the
property, refusals included), with the default example database, which
HypoFuzz requires:

    hypothesis fuzz -n 4 --no-dashboard -- --pyargs conformance.fuzzing \\
        --engine NAME --phasecert-example-db redis://HOST:6379/0

Every worker on every machine pointed at the same Redis saves what it finds
there and replays what the others found (docs/fuzzing.md). A plain
`pytest --pyargs conformance.fuzzing --engine NAME --phasecert-example-db
URL` replays the stored failures first, as any Hypothesis test does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, note, reject, settings
from hypothesis import strategies as st

from adapters.discovery import EngineNotFound, load_engine
from adapters.protocol import Inexpressible
from conformance.catalog import marker_name
from conformance.checking import hold, not_applicable
from conformance.describe import describe_scenario
from conformance.properties import REGISTRY
from conformance.properties.registry import Property
from conformance.running import play
from conformance.scenario import Scenario

_ENGINE = pytest.StashKey[Any]()
_SCENARIOS: dict[str, st.SearchStrategy[Scenario]] = {}


def _engine(config: pytest.Config) -> Any:
    """The engine of --engine, loaded once: collection needs its
    capabilities to leave out the properties that don't apply."""
    if _ENGINE not in config.stash:
        try:
            config.stash[_ENGINE] = load_engine(config.getoption("engine"))
        except EngineNotFound as e:
            raise pytest.UsageError(str(e)) from None
    return config.stash[_ENGINE]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One test per property of the --rule options (all without), with an
    id naming the engine too: HypoFuzz and Hypothesis key the example
    database by test id, so what one engine failed is not replayed on
    another. A property that doesn't apply is marked skipped, which
    HypoFuzz leaves out (skipping while running would store a failure)."""
    if "fuzzed_property" not in metafunc.fixturenames:
        return
    engine = _engine(metafunc.config)
    wanted = set(metafunc.config.getoption("rule"))
    params = []
    for name, prop in REGISTRY.items():
        if wanted and not wanted & set(prop.rules):
            continue
        marks = [getattr(pytest.mark, marker_name(r)) for r in prop.rules]
        inapplicable = not_applicable(prop, engine)
        if inapplicable is not None:
            marks.append(pytest.mark.skip(reason=inapplicable.message))
        params.append(pytest.param(prop, id=f"{name}@{engine.name}", marks=marks))
    metafunc.parametrize("fuzzed_property", params)


@pytest.fixture(scope="session")
def fuzzed_engine(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The engine collection loaded; one in its own process is stopped at
    the end of the session."""
    engine = _engine(request.config)
    yield engine
    close = getattr(engine, "close", None)
    if callable(close):
        close()


@pytest.fixture(autouse=True)
def database_key_by_test_id(request: pytest.FixtureRequest) -> None:
    """Key the example database by the test's id, as HypoFuzz does: Hypothesis
    does so only for `@pytest.mark.parametrize`, not for tests parametrized
    by a hook, whose every property would otherwise share one key with
    HypoFuzz's keys none of them."""
    inner = request.function.hypothesis.inner_test
    inner._hypothesis_internal_add_digest = request.node.nodeid.encode()


def _scenarios(prop: Property, engine: Any) -> st.SearchStrategy[Scenario]:
    """The property's scenarios for the engine's capabilities, built once."""
    if prop.name not in _SCENARIOS:
        _SCENARIOS[prop.name] = prop.scenarios(engine.capabilities)
    return _SCENARIOS[prop.name]


# No `database` here: HypoFuzz fuzzes only tests using the default one, which
# --phasecert-example-db sets (conformance.corpus). Nor nested_given
# suppressed, and derandomize explicitly off: HypoFuzz skips such tests, and
# on a CI machine (CI set) Hypothesis's default profile derandomizes.
@settings(
    deadline=None,
    derandomize=False,
    suppress_health_check=[h for h in HealthCheck if h.name != "nested_given"],
)
@given(data=st.data())
def test_fuzz_property(
    fuzzed_property: Property, fuzzed_engine: Any, phasecert_timeout: float, data: Any
) -> None:
    """One scenario of the property, held to it like `run_property` holds
    each example: a `Violation` or an `EngineError` fails the test."""
    scenario = data.draw(_scenarios(fuzzed_property, fuzzed_engine), label="scenario")
    note(describe_scenario(scenario))
    try:
        trace = play(fuzzed_engine, scenario, phasecert_timeout)
    except Inexpressible:
        reject()  # set aside, as run_property does (adapters.protocol)
    hold(fuzzed_property, fuzzed_engine, trace)
    # Shown on HypoFuzz's dashboard and in --hypothesis-show-statistics.
    event("exercised" if fuzzed_property.exercised(trace) else "not exercised")
