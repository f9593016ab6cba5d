"""Writing files atomically: a reader sees the old file or the new one,
never half of one, even if the run is interrupted.

The files of one report are replaced together: every new file is written
first, then all are renamed in one go with SIGINT and SIGTERM held back, so
an interrupt can't leave a new report.json beside an old report.md.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

#: A temporary file this old was left by a killed run, not one in progress.
STALE_AFTER = 60.0

_UMASK_LOCK = threading.Lock()


def write_text_atomically(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename it over `path`."""
    write_files_atomically({path: text})


def write_files_atomically(texts: Mapping[Path, str]) -> None:
    """Write every file of `texts`, then rename them all into place together."""
    temporaries: dict[Path, str] = {}
    try:
        for path, text in texts.items():
            temporaries[path] = _write_temporary(path, text)
        with _signals_held():
            for path, tmp in temporaries.items():
                os.replace(tmp, path)
    except BaseException:
        for tmp in temporaries.values():
            Path(tmp).unlink(missing_ok=True)
        raise


def _write_temporary(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file 0600; a report is an ordinary file, with
        # the mode the user's umask gives.
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _umask() -> int:
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


@contextmanager
def _signals_held() -> Iterator[None]:
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def remove_stale_temporaries(directory: Path, *names: str) -> None:
    """Delete the temporary files a killed run left in `directory` while
    writing one of `names` (file names, or patterns like `*.json`); those of
    a run in progress are younger than STALE_AFTER seconds."""
    if not directory.is_dir():
        return
    cutoff = time.time() - STALE_AFTER
    for name in names:
        for tmp in directory.glob(f".{name}.*.tmp"):
            try:
                if tmp.is_file() and not tmp.is_symlink() and tmp.stat().st_mtime < cutoff:
                    tmp.unlink()
            except OSError:
                continue
