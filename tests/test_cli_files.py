"""The files of a run: written with the umask's mode, replaced together,
temporary files of a killed run cleaned up; signals end the CLI with a
message, not a traceback; certify writes only under --out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.atomic import (
    STALE_AFTER,
    remove_stale_temporaries,
    write_files_atomically,
    write_text_atomically,
)
from conformance.cli import main


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_files_get_the_mode_of_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        write_text_atomically(tmp_path / "r.json", "{}")
    finally:
        os.umask(old)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == mode


def test_a_group_of_files_is_replaced_all_or_none(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("old")
    (tmp_path / "blocker").write_text("a file where a directory should be")
    with pytest.raises(OSError):
        write_files_atomically({tmp_path / "a": "new", tmp_path / "blocker" / "b": "new"})
    assert (tmp_path / "a").read_text() == "old"
    assert not list(tmp_path.glob(".*.tmp"))


def test_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    stale, fresh = tmp_path / ".report.json.x1.tmp", tmp_path / ".report.md.x2.tmp"
    others = tmp_path / ".another-tool.x3.tmp"
    for path in (stale, fresh, others):
        path.write_text("half")
        old = time.time() - STALE_AFTER - 10
        os.utime(path, (old, old))
    os.utime(fresh)
    remove_stale_temporaries(tmp_path, "report.json", "report.md")
    remove_stale_temporaries(tmp_path / "missing", "report.json")
    assert not stale.exists() and fresh.exists() and others.exists()


def test_certify_writes_only_under_out_and_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    monkeypatch.chdir(here)
    out = elsewhere / "reports" / "m"
    out.mkdir(parents=True)
    stale = out / ".report.json.killed.tmp"
    stale.write_text("half")
    os.utime(stale, (time.time() - 3600,) * 2)
    args = ["--engine", "mutant:untap-before-phasing", "--profile", "dev", "--rule", "502.1"]
    code = main(["certify", *args, "--out", str(out)])
    capsys.readouterr()
    assert code == 1
    assert list(here.iterdir()) == []
    assert not stale.exists()
    assert (out / "report.json").is_file() and list((out / "counterexamples").iterdir())
    written = {p.relative_to(elsewhere).parts[0] for p in elsewhere.rglob("*")}
    assert written == {"reports"}


def _start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        # A test runner in the background ignores SIGINT; the CLI must not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_sigterm_ends_with_a_message_and_whole_reports(tmp_path: Path) -> None:
    out = tmp_path / "phasecert-reports" / "reference"
    out.mkdir(parents=True)
    (out / "report.json").write_text("old\n")
    process = _start(tmp_path, "certify", "--engine", "reference", "--profile", "certify")
    time.sleep(3)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert "terminated (SIGTERM)" in err and "Traceback" not in err
    assert (out / "report.json").read_text() == "old\n"
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize("delay", [0.6, 1.2, 2.0])  # after the interpreter starts
def test_sigint_while_loading_is_not_a_traceback(tmp_path: Path, delay: float) -> None:
    process = _start(tmp_path, "rules")
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert process.returncode in (0, 130, -signal.SIGINT), err
