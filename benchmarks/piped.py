"""A command driven through pipes whose output is timestamped as it arrives: how long a user
waits for a line or a prompt (benchmarks/first_move.py)."""
import itertools
import os
import subprocess
import threading
import time
from pathlib import Path


class MomentError(Exception):
    """A moment that could not be timed: a wait for output that timed out (``status``
    "timeout") or a command that failed ("failed")."""

    def __init__(self, message, status="failed"):
        super().__init__(message)
        self.status = status


def match_time(chunks, pattern, start=0, count=1):
    """``(time, end)`` of the ``count``-th match of ``pattern`` (bytes regex) at or after byte
    ``start`` of the output ``chunks`` (``[(time read, bytes)]`` in order): the time of the
    chunk that completed the match and the offset just after it; None before it is there."""
    text = b"".join(data for _, data in chunks)
    found = list(itertools.islice(pattern.finditer(text, start), count))
    if len(found) < count:
        return None
    end, seen = found[-1].end(), 0
    for t, data in chunks:
        seen += len(data)
        if seen >= end:
            return t, end


class Child:
    """``command`` run with pipes; a thread reads its standard output and timestamps each chunk
    (``time.perf_counter``; ``t0`` is the start); every wait ends ``timeout`` seconds after
    the start. Its standard error and output are appended to the files ``log`` + ``.err``
    and ``.out``. Use it as a context manager: leaving it closes the input, gives the command
    10 s to end (none after an exception) and kills it if it is still running."""

    def __init__(self, command, cwd, env, timeout, log):
        self.deadline = time.perf_counter() + timeout
        self.chunks, self.closed = [], False
        self.cond = threading.Condition()
        self.log = str(log)
        self._err = open(self.log + ".err", "ab")
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._err)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 65536)
            with self.cond:
                if data:
                    self.chunks.append((time.perf_counter(), data))
                else:
                    self.closed = True
                self.cond.notify_all()
            if not data:
                return

    def wait_for(self, pattern, what, start=0, count=1):
        """``(time, end)`` (see :func:`match_time`) once the output holds ``pattern``;
        ``MomentError`` if the command ends first or the deadline passes."""
        with self.cond:
            while True:
                hit = match_time(self.chunks, pattern, start, count)
                if hit:
                    return hit
                if self.closed:
                    why = last_line(Path(self.log + ".err").read_text(errors="replace"))
                    raise MomentError(f"the command ended (exit {self.proc.wait()}) before "
                                      f"{what}: {why}")
                left = self.deadline - time.perf_counter()
                if left <= 0:
                    raise MomentError(f"no {what} in time", "timeout")
                self.cond.wait(min(left, 0.5))

    def send(self, text):
        """Write ``text`` to the command's input; the time it was sent."""
        t = time.perf_counter()
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()
        return t

    def __enter__(self):
        return self

    def __exit__(self, kind, *rest):
        try:
            self.proc.stdin.close()
            if kind is None:                # done: the command may end by itself (its input
                self.proc.wait(timeout=10)  # closed); after an error or Ctrl-C, killed now
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._reader.join(timeout=5)
            self._err.close()
            with open(self.log + ".out", "ab") as f:
                f.write(b"".join(data for _, data in self.chunks))


def last_line(text):
    """The last non-blank line of ``text`` (a command's standard error), or ''."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].strip() if lines else ""


