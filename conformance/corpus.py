"""The counterexample corpus: every failure found is kept as a scenario file
and replayed first, in a fixed order, on every later run, so a bug once
found is never lost to a lucky draw of examples (like a fuzzer's corpus).

This module is also the pytest side of sharing examples: `--phasecert-corpus
DIR` replays and extends a corpus, and `--phasecert-example-db` points
Hypothesis's own example database at a directory or at Redis, so CI runners
share what each of them found.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from conformance.atomic import write_text_atomically
from conformance.checking import PROFILES
from conformance.codec import DecodeError, dumps, from_data, loads_scenario, to_data
from conformance.legality import InvalidScenario, check_setup
from conformance.results import PropertyResult
from conformance.scenario import Scenario

#: Where `phasecert certify` keeps an engine's corpus, under its report directory.
CORPUS_DIRNAME = "counterexamples"

#: The largest scenario file read; a real counterexample is a few KB.
SCENARIO_LIMIT = 1024 * 1024

#: The key under which each test item carries its PropertyResult (as JSON
#: data) in `user_properties`, which pytest-xdist sends back from workers.
RESULT_KEY = "phasecert_result"


class CorpusError(ValueError):
    """A corpus or example-database setting can't be used; the message names it."""


def counterexample_name(prop: str, scenario: Scenario) -> str:
    """`<property>.<digest>.json`: the property it failed, and a digest of the
    scenario so the same counterexample found twice is stored once."""
    digest = hashlib.sha256(dumps(scenario).encode()).hexdigest()[:12]
    return f"{prop}.{digest}.json"


def corpus_file(prop: str, scenario: Scenario) -> str:
    """Where a report directory keeps a counterexample of `prop`, relative
    to it."""
    return f"{CORPUS_DIRNAME}/{counterexample_name(prop, scenario)}"


def property_of(path: Path) -> str:
    """The property a corpus file belongs to, from its name."""
    return path.name.split(".", 1)[0]


@dataclass
class Corpus:
    """The scenarios of a corpus directory, by property, in file-name order."""

    directory: Path | None
    scenarios: dict[str, list[Scenario]] = field(default_factory=dict)

    def replay_for(self, prop: str) -> tuple[Scenario, ...]:
        return tuple(self.scenarios.get(prop, ()))

    def keep(self, result: PropertyResult) -> list[Path]:
        """Store the counterexamples of a failed result (the comparison's
        further ones too); their files' paths."""
        if self.directory is None:
            return []
        paths = []
        for data in result.scenarios():
            scenario = from_data(Scenario, data)
            path = self.directory / counterexample_name(result.property, scenario)
            if path.is_symlink() or not path.exists():
                write_text_atomically(path, dumps(scenario))
            paths.append(path)
        return paths


def read_limited(path: Path, limit: int) -> str:
    """The text of `path`, which must be a regular file of at most `limit`
    bytes: a FIFO would block, /dev/zero never end. OSError or ValueError
    (not UTF-8, too big, not a file) say why not."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        data = os.read(fd, limit + 1)
        if len(data) > limit:
            raise ValueError(f"larger than {limit // 1024} KB")
        return data.decode("utf-8")
    finally:
        os.close(fd)


def read_scenario(path: Path) -> Scenario:
    """The legal scenario in file `path`; DecodeError, InvalidScenario,
    OSError or ValueError say what is wrong with it."""
    scenario = loads_scenario(read_limited(path, SCENARIO_LIMIT))
    check_setup(scenario.setup)
    return scenario


def corpus_files(directory: Path) -> Iterator[Path]:
    return iter(sorted(directory.glob("*.json")))


def load_corpus(directory: Path | None) -> Corpus:
    """Read every scenario file of `directory` (missing: an empty corpus)."""
    corpus = Corpus(directory)
    if directory is None or not directory.exists():
        return corpus
    if not directory.is_dir():
        raise CorpusError(f"corpus {directory} is not a directory")
    for path in corpus_files(directory):
        try:
            scenario = read_scenario(path)
        except InvalidScenario as e:
            raise CorpusError(f"corpus file {path}: {e}") from None
        except (DecodeError, OSError, ValueError) as e:
            raise CorpusError(f"corpus file {path}: {getattr(e, 'strerror', None) or e}") from None
        corpus.scenarios.setdefault(property_of(path), []).append(scenario)
    return corpus


#: The Redis databases opened in this process, by URL.
_REDIS: dict[str, ExampleDatabase] = {}


def example_database(spec: str) -> ExampleDatabase:
    """Hypothesis's example database for `spec`: `redis://HOST:PORT/N` or a
    directory. Redis is checked at once, so a wrong address is a setup error
    and not a slow failure in the middle of the run. One URL gives one
    database object per process: Redis databases compare by connection, and
    a HypoFuzz worker fuzzes a test only if its database (opened when the
    test module was imported, maybe by an earlier pytest session in the
    process) is the default one, opened again by the worker's own session."""
    if not spec.startswith(("redis://", "rediss://")):
        return DirectoryBasedExampleDatabase(spec)
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise CorpusError(
            f"--example-db {spec}: needs the redis package (pip install 'hypothesis[redis]')"
        ) from None
    try:
        client = redis.Redis.from_url(spec, socket_connect_timeout=5)
        client.ping()
    except (redis.RedisError, ValueError) as e:
        raise CorpusError(f"--example-db {spec}: can't reach Redis ({e})") from None
    if spec not in _REDIS:
        _REDIS[spec] = RedisExampleDatabase(client)
    return _REDIS[spec]


# -- pytest side --------------------------------------------------------------

_CORPUS = pytest.StashKey[Corpus]()
_SAVED_PROFILES = pytest.StashKey[dict[str, settings]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("phasecert")
    group.addoption(
        "--phasecert-corpus",
        metavar="DIR",
        help="replay the counterexamples in DIR first; store new ones there",
    )
    group.addoption(
        "--phasecert-example-db",
        metavar="URL|DIR",
        help="Hypothesis example database: redis://HOST:PORT/N or a directory "
        "(default: .hypothesis/)",
    )


def pytest_configure(config: pytest.Config) -> None:
    directory = config.getoption("phasecert_corpus", None)
    try:
        config.stash[_CORPUS] = load_corpus(Path(directory) if directory else None)
        spec = config.getoption("phasecert_example_db", None)
        if spec:
            _use_database(config, example_database(spec))
    except CorpusError as e:
        raise pytest.UsageError(str(e)) from None


#: The profile that makes --phasecert-example-db Hypothesis's default database.
DEFAULT_DB_PROFILE = "phasecert-example-db"
_DEFAULT_BEFORE = pytest.StashKey[str | None]()


def _use_database(config: pytest.Config, database: ExampleDatabase) -> None:
    # The phasecert profiles are looked up when the run starts, so
    # re-registering them here reaches every property; the originals come
    # back at unconfigure, for callers running pytest several times in-process.
    # A derandomized profile keeps no database (Hypothesis: derandomize
    # implies database=None), so that the gate stays deterministic.
    saved = {}
    for name in PROFILES:
        key = f"phasecert-{name}"
        saved[key] = settings.get_profile(key)
        if not saved[key].derandomize:
            settings.register_profile(key, settings(saved[key], database=database))
    config.stash[_SAVED_PROFILES] = saved
    # It is also the default database, for plain @given tests: those of
    # conformance.fuzzing, which HypoFuzz only fuzzes if they use the default.
    config.stash[_DEFAULT_BEFORE] = settings.get_current_profile_name()
    # Not derandomized even where Hypothesis's CI default is (CI set): that
    # would drop the database again, and HypoFuzz skips derandomized tests.
    settings.register_profile(
        DEFAULT_DB_PROFILE, settings(settings(), database=database, derandomize=False)
    )
    settings.load_profile(DEFAULT_DB_PROFILE)


def pytest_unconfigure(config: pytest.Config) -> None:
    for key, original in config.stash.get(_SAVED_PROFILES, {}).items():
        settings.register_profile(key, original)
    before = config.stash.get(_DEFAULT_BEFORE, None)
    # HypoFuzz collects the tests with pytest and fuzzes them after the
    # session ends, writing to the default database: it must stay.
    if before is not None and not _in_hypofuzz_run():
        settings.load_profile(before)


def _in_hypofuzz_run() -> bool:
    detection = sys.modules.get("hypofuzz.detection")
    return detection is not None and bool(detection.in_hypofuzz_run())


@dataclass
class ItemCorpus:
    """The corpus as one test item sees it: what to replay, and where its
    result goes (the corpus file, and the item's `user_properties`)."""

    corpus: Corpus
    node: pytest.Item

    def replay_for(self, prop: str) -> tuple[Scenario, ...]:
        return self.corpus.replay_for(prop)

    def keep(self, result: PropertyResult) -> None:
        self.corpus.keep(result)
        self.node.user_properties.append((RESULT_KEY, to_data(result)))


@pytest.fixture
def phasecert_corpus(request: pytest.FixtureRequest) -> ItemCorpus:
    """The counterexample corpus of --phasecert-corpus (empty without it)."""
    corpus = request.config.stash.get(_CORPUS, None) or Corpus(None)
    return ItemCorpus(corpus, request.node)


def result_of(user_properties: Any) -> PropertyResult | None:
    """The PropertyResult a test item recorded, if it recorded one."""
    for key, value in user_properties:
        if key == RESULT_KEY:
            return decode_result(value)
    return None


def decode_result(data: Any) -> PropertyResult:
    return PropertyResult(
        property=data["property"],
        rules=tuple(data["rules"]),
        status=data["status"],
        examples=data.get("examples", 0),
        message=data.get("message", ""),
        counterexample=data.get("counterexample"),
        missing=tuple(data.get("missing", ())),
        duration=data.get("duration", 0.0),
        exercised=data.get("exercised", 0),
        refusals=data.get("refusals", 0),
        further=tuple(data.get("further", ())),
    )
