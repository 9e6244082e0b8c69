"""Progress of long builds: a build that runs longer than a few seconds says
on stderr what it is doing, every few seconds, and how long it took; a quick
one prints nothing.

Stages set the current phase with ``phase("scheduling 120/916 functions")``;
a daemon thread prints it while a ``Progress`` is open."""

from __future__ import annotations

import sys
import threading
import time

_current: "Progress | None" = None


def phase(text: str) -> None:
    """What the open build is doing now (nothing when none is open)."""
    progress = _current
    if progress is not None:
        progress.phase = text


class Progress:
    def __init__(self, what: str, enabled: bool | None = None, quiet_s: float = 10.0, every_s: float = 10.0):
        # enabled: True always prints, False never, None after quiet_s.
        self.what = what
        self.phase = "starting"
        self._always = enabled is True
        self._quiet_s = every_s if self._always else quiet_s
        self._every_s = every_s
        self._enabled = enabled is not False
        self._done = threading.Event()
        self._printed = False
        self._start = 0.0

    def __enter__(self) -> "Progress":
        global _current
        self._start = time.perf_counter()
        _current = self
        if self._always:
            self._printed = True
            print(f"stablehlo_tvm: {self.what}: {self.phase}", file=sys.stderr, flush=True)
        if self._enabled:
            threading.Thread(target=self._report, name="stablehlo_tvm-progress", daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        global _current
        self._done.set()
        _current = None
        if self._printed:
            outcome = "failed" if exc[0] is not None else "done"
            print(f"stablehlo_tvm: {self.what} {outcome} in {time.perf_counter() - self._start:.1f} s", file=sys.stderr, flush=True)

    def _report(self) -> None:
        if self._done.wait(self._quiet_s):
            return
        while not self._done.is_set():
            self._printed = True
            elapsed = time.perf_counter() - self._start
            print(f"stablehlo_tvm: {self.what}: {self.phase} ({elapsed:.0f} s)", file=sys.stderr, flush=True)
            if self._done.wait(self._every_s):
                return
