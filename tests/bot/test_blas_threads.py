"""The bot's process gives numpy's BLAS one thread (a hint's small matrices kept both
cores of a 2-core host busy for no gain in wall time), unless the environment says
otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import BLAS_THREADS, one_blas_thread

REPO = Path(__file__).resolve().parents[2]
PROBE = (
    "import bot.__main__, os, numpy; "
    "print(os.environ['OPENBLAS_NUM_THREADS'], "
    "[l.split()[1] for l in open('/proc/self/status') if l.startswith('Threads')][0])"
)


def _probe(**extra: str) -> tuple[str, int]:
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREADS}
    env.update(PYTHONPATH=str(REPO), **extra)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    setting, threads = done.stdout.split()
    return setting, int(threads)


def test_one_blas_thread_fills_only_what_the_environment_leaves_unset() -> None:
    environ = {"OMP_NUM_THREADS": "4", "MKL_NUM_THREADS": ""}
    one_blas_thread(environ)
    assert environ == {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "4", "MKL_NUM_THREADS": "1"}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_the_bot_starts_numpy_with_one_thread() -> None:
    # the bot's start-up sets the limit before numpy is imported: no BLAS worker thread
    assert _probe() == ("1", 1)
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: BLAS starts no worker thread anyway")
    # the environment's own choice is kept (and, on two cores or more, starts a worker)
    setting, threads = _probe(OPENBLAS_NUM_THREADS="2")
    assert setting == "2" and threads > 1
