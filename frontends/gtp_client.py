"""A GTP engine in a subprocess, spoken to over pipes: the one client of `cli.py match` and of
the lab tools (``benchmarks/lab``) that play or question other engines.

    engine = GtpClient("gnugo --mode gtp --level 10", timeout=60)
    ok, text = engine.send("genmove b")     # (True, "E5"), or (False, "illegal move") for "?"
    text = engine.ask("final_score")        # the text, or GtpRefused for a "?" answer
    engine.close()                          # quit, then kill if it does not exit

A reply is the lines from the first one starting with ``=`` or ``?`` to the next empty line
(empty lines before it are skipped; the command's id, as in ``=12``, is dropped). The
engine's output is read by a thread into a queue, so a reply that never comes is an
:class:`EngineTimeout` after ``timeout`` seconds rather than a hang; an engine that exits is
an :class:`EngineExited`, one whose reply starts otherwise a :class:`NotGtp`. These and
:class:`EngineStartError` (a command that cannot be started) are GtpClientErrors, which are
RuntimeErrors; after one of them the client is spent: later commands raise it again and
``close`` only ends the process. ``keep_stderr=True`` keeps the engine's standard error in a
temporary file: its last lines are quoted when the engine exits, and
:meth:`GtpClient.stderr_text` returns it all (say, a win rate an engine prints there).
``seconds`` is the wall time of the last reply.
"""
import queue
import shlex
import subprocess
import tempfile
import threading
import time


class GtpClientError(RuntimeError):
    """The engine cannot go on: it could not start, exited, hung or does not speak GTP."""


class EngineStartError(GtpClientError):
    """The command could not be started."""


class EngineExited(GtpClientError):
    """The engine exited (or closed its output) before answering."""


class EngineTimeout(GtpClientError):
    """No complete reply within the timeout."""


class NotGtp(GtpClientError):
    """The engine answered something that is not a GTP reply."""


class GtpRefused(RuntimeError):
    """The engine answered ``?`` to a command given to :meth:`GtpClient.ask` (the client can
    go on)."""


class GtpClient:
    """One GTP engine process. ``command``: a command line (split like a shell's) or a list of
    arguments; ``timeout``: default seconds to wait for each reply (None: no limit);
    ``cwd``: its working folder."""

    def __init__(self, command, timeout=120.0, cwd=None, keep_stderr=False):
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.timeout, self.seconds = timeout, 0.0
        self._stderr = tempfile.TemporaryFile() if keep_stderr else None
        self._stderr_kept = "" if keep_stderr else None       # its text, once closed
        try:
            args = shlex.split(command) if isinstance(command, str) else list(command)
            if not args:
                raise ValueError("empty command")
            self.proc = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr or subprocess.DEVNULL, cwd=cwd, text=True,
                encoding="utf-8", errors="replace", bufsize=1)
        except (OSError, ValueError) as e:
            if self._stderr:
                self._stderr.close()
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise EngineStartError(f"cannot start {self.command!r}: {reason}") from None
        self.failure = None             # the error that spent the client
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)            # end of output: the engine exited

    def send(self, command, timeout=None):
        """Send one command; return ``(ok, text)``: ok for ``=``, not for ``?``, text the
        reply without its ``=``/``?``, id and outer blanks (lines joined by newlines)."""
        if self.failure is not None:
            raise self.failure
        wait = self.timeout if timeout is None else timeout
        deadline = None if wait is None else time.monotonic() + wait
        start = time.perf_counter()
        lines = []
        try:
            try:
                self.proc.stdin.write(command + "\n")
                self.proc.stdin.flush()
            except OSError:             # BrokenPipeError: the engine is gone
                raise self._exited(command) from None
            while True:
                try:
                    line = self.lines.get(timeout=None if deadline is None
                                          else max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    raise EngineTimeout(f"the engine {self.command!r} gave no GTP reply to "
                                        f"{command!r} within {wait:g} s") from None
                if line is None:
                    raise self._exited(command)
                line = line.rstrip()
                if not lines and not line:
                    continue            # blank lines between replies
                if not line:
                    break
                if not lines and line[0] not in "=?":
                    raise NotGtp(f"the engine {self.command!r} does not speak GTP: it "
                                 f"answered {line[:60]!r} to {command!r}")
                lines.append(line)
        except GtpClientError as e:
            self.failure = e
            raise
        self.seconds = time.perf_counter() - start
        text = "\n".join(lines)
        return text.startswith("="), text[1:].lstrip("0123456789").strip()

    def ask(self, command, timeout=None):
        """The text of a ``=`` reply to ``command``; :class:`GtpRefused` for ``?``."""
        ok, text = self.send(command, timeout)
        if not ok:
            raise GtpRefused(f"the engine {self.command!r} refused {command!r}: {text}")
        return text

    def _exited(self, command):
        try:
            status = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:   # closed its output but still running
            status = None
        message = f"the engine {self.command!r} exited"
        if status is not None:
            message += f" (status {status})"
        message += f" before answering {command!r}"
        tail = " | ".join(line for line in self.stderr_text().splitlines()[-4:] if line.strip())
        return EngineExited(message + (f"; its last error output: {tail[-400:]}" if tail else ""))

    def stderr_text(self):
        """All the engine's standard error so far ("" unless ``keep_stderr``); after
        :meth:`close`, all of it."""
        if self._stderr is None or self._stderr.closed:
            return self._stderr_kept or ""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", errors="replace")

    def close(self, timeout=5.0):
        """``quit``, then wait up to ``timeout`` seconds for the process to end, and kill it
        if it does not (a spent client's engine is killed at once); returns its exit
        status. Closing twice does nothing more."""
        if self.proc.poll() is None:
            if self.failure is None:
                try:
                    self.send("quit", timeout=timeout)
                except GtpClientError:
                    pass
            else:
                self.proc.kill()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.failure is None:
            self.failure = EngineExited(f"the engine {self.command!r} was closed")
        self.reader.join(timeout=1.0)
        streams = [self.proc.stdin]
        if not self.reader.is_alive():     # else a child of the engine still holds its output
            streams.append(self.proc.stdout)
        for stream in streams:
            try:
                stream.close()
            except OSError:
                pass
        if self._stderr is not None and not self._stderr.closed:
            self._stderr_kept = self.stderr_text()
            self._stderr.close()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
