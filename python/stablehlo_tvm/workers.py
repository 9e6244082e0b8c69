"""Worker processes for the conformance runner and the differential tester,
so that a crash or a hang in the import (or in XLA) is a result, not the
end of the run.

`python -m MODULE --worker` serves one JSON request a line (`serve`); it
may write {"stage": name} lines saying what it runs (`report_stage`) before
its JSON reply. `Worker.request` returns the reply, or a `Failure` when the
process died or ran out of time (it is then gone; make a new Worker)."""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Failure:
    kind: str  # "crash" or "timeout"
    stage: str  # the last stage the worker reported ("?" if none)
    exit_code: int | None


class Worker:
    def __init__(self, module: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )

    def request(self, payload: Any, timeout: float) -> Any:
        """The worker's reply to `payload`, or a Failure."""
        try:
            self.proc.stdin.write(json.dumps(payload) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return Failure("crash", "?", self.proc.wait())
        stage = "?"
        deadline = time.monotonic() + timeout
        while True:
            selector = selectors.DefaultSelector()
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            ready = selector.select(max(0.0, deadline - time.monotonic()))
            selector.close()
            if not ready:
                self.proc.kill()
                self.proc.wait()
                return Failure("timeout", stage, None)
            line = self.proc.stdout.readline()
            if not line:
                return Failure("crash", stage, self.proc.wait())
            message = json.loads(line)
            if isinstance(message, dict) and message.keys() == {"stage"}:
                stage = message["stage"]
                continue
            return message

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, timeout: float = 60) -> None:
        if self.alive():
            self.proc.stdin.close()
            self.proc.wait(timeout=timeout)


def serve(handle: Callable[[Any], Any]) -> int:
    """The worker's loop: one JSON request a line in, `handle`'s reply out."""
    for line in sys.stdin:
        if line.strip():
            write(handle(json.loads(line)))
    return 0


def write(message: Any) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def report_stage(name: str) -> None:
    """Says what the worker runs next: a crash is then attributed to it."""
    write({"stage": name})
