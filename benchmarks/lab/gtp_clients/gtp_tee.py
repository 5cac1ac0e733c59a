#!/usr/bin/env python3
"""Run a GTP engine and log its traffic.

    gtp_tee.py LOGFILE [--] [COMMAND ARGS...]

Without COMMAND, runs `python3 REPO/cli.py gtp --threads 1 --seconds 0.5`.
Every line the client sends is logged as `> line`, every line the engine answers as
`< line`, every line of the engine's stderr as `! line`, each with seconds since start and the
wrapper's pid (several engines may share one log).
The engine's stdout/stderr are passed through unchanged.
"""
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    log_path, args = args[0], args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        args = [sys.executable, os.path.join(REPO, "cli.py"), "gtp",
                "--threads", "1", "--seconds", "0.5"]
    t0 = time.time()
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1, encoding="utf-8", errors="replace")

    def note(tag, line):
        with lock:
            log.write("%8.3f [%d] %s %s\n" % (time.time() - t0, os.getpid(), tag,
                                                line.rstrip("\r\n")))

    note("#", "start pid=%d cmd=%r cwd=%s" % (os.getpid(), args, os.getcwd()))
    child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, bufsize=0)

    def pump(source, sink, mark, stop_on_error):
        """Copy the child's lines from ``source`` to ``sink``, logging each with ``mark``."""
        for raw in iter(source.readline, b""):
            note(mark, raw.decode("utf-8", "replace"))
            try:
                sink.write(raw)
                sink.flush()
            except (BrokenPipeError, OSError):
                if stop_on_error:
                    break

    threads = [threading.Thread(target=pump, args=(child.stdout, sys.stdout.buffer, "<", True),
                                daemon=True),
               threading.Thread(target=pump, args=(child.stderr, sys.stderr.buffer, "!", False),
                                daemon=True)]
    for t in threads:
        t.start()
    stdin = sys.stdin.buffer
    try:
        for raw in iter(stdin.readline, b""):
            note(">", raw.decode("utf-8", "replace"))
            try:
                child.stdin.write(raw)
                child.stdin.flush()
            except (BrokenPipeError, OSError):
                note("#", "engine stdin closed")
                break
    except KeyboardInterrupt:
        pass
    note("#", "client closed stdin")
    try:
        child.stdin.close()
    except OSError:
        pass
    try:
        rc = child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        rc = child.wait()
    for t in threads:
        t.join(timeout=2)
    note("#", "engine exited rc=%s" % rc)
    sys.exit(rc if rc and rc > 0 else 0)


if __name__ == "__main__":
    main()
