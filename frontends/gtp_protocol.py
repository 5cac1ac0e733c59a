"""The Go Text Protocol's wire format, version 2 (Farnebäck's draft specification), and a
server that dispatches command lines to ``cmd_NAME`` methods. No game here.

Replies are formatted as GNU Go formats them: ``=id result`` with the first line of a
multi-line result on the ``=`` line, ``?id message`` for errors, an empty line after each
reply and never inside one. Input lines are preprocessed as section 3.1 says (control
characters dropped, tabs to spaces, ``#`` comments cut), may carry a numeric id, and are read
by a thread into a queue, at most ``MAX_LINE`` characters each, so that a streamed reply (live
analysis) or pondering runs until the next command arrives.
"""
import math
import queue
import re
import sys
import threading

MAX_LINE = 65536                 # characters of one command line read at most
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_PREFIXES = ("kgs_", "gg_", "lz_", "kata_", "gogui_", "mcts_")


class GtpError(Exception):
    """A command failed: the message goes back as ``? message``."""


def preprocess(line: str) -> str:
    """GTP section 3.1: drop control characters but HT and LF, tabs to spaces, comments."""
    line = _CONTROL.sub("", line).replace("\t", " ")
    return line.split("#", 1)[0].strip()


def parse_color(text):
    """0 (black) or 1 (white) from ``b``, ``black``, ``w``, ``white`` in any case."""
    t = text.lower()
    if t in ("b", "black"):
        return 0
    if t in ("w", "white"):
        return 1
    raise GtpError("syntax error")


class Stream:
    """A reply that goes on after its first line: live analysis. ``run(write, stopped)``
    writes the lines (``write(text)``) until ``stopped()`` is true or it is done."""

    def __init__(self, ident, run):
        self.head, self.run = f"={ident}", run


class GtpServer:
    """Dispatches GTP lines to the ``cmd_NAME`` methods of subclasses (``kgs-rules`` calls
    ``cmd_kgs_rules``). A method returns the result text (or None), or a :class:`Stream`;
    it raises :class:`GtpError` (or ``ValueError``) with the error message. ``errors`` are
    further exception types whose message goes back as an error; ``note(message)`` logs."""

    errors = ()
    quit = False
    pondering = False            # true: call ponder(stopped) while waiting for a command

    def note(self, message):
        print(message, file=sys.stderr, flush=True)

    def ponder(self, stopped):
        """Work while no command is waiting (``stopped()`` turns true when one arrives)."""

    # -- the protocol ----------------------------------------------------------------------
    def handle(self, line: str):
        """The reply to one input line: a string without the final empty line, a
        :class:`Stream`, or None if the line is empty after preprocessing."""
        line = preprocess(line)
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} syntax error"
        name, args = words[0].lower(), words[1:]
        method = getattr(self, "cmd_" + name.replace("-", "_"), None)
        if method is None:
            return f"?{ident} unknown command"
        self.ident = ident
        try:
            result = method(*args) if _accepts(method, len(args)) else _syntax()
        except (GtpError, ValueError) + tuple(self.errors) as e:
            return f"?{ident} {e}"
        except Exception as e:          # a bug must not kill the engine in a GUI or a match
            self.note(f"internal error in {line!r}: {type(e).__name__}: {e}")
            return f"?{ident} internal error: {type(e).__name__}"
        if isinstance(result, Stream):
            return result
        return success(ident, "" if result is None else str(result))

    def run(self, stdin=sys.stdin, stdout=sys.stdout):
        """Serve commands until ``quit`` or end of input; see the module docstring."""
        lines = queue.Queue()
        threading.Thread(target=read_lines, args=(stdin, lines), daemon=True).start()

        def write(text):
            stdout.write(text + "\n")
            stdout.flush()
        while not self.quit:
            if self.pondering and lines.empty():
                self.ponder(stopped=lambda: not lines.empty())
            raw = lines.get()
            if raw is None:
                break
            self.pondering = False
            reply = self.handle(raw) if raw is not _TOO_LONG else \
                f"? command too long (over {MAX_LINE} characters)"
            if isinstance(reply, Stream):
                write(reply.head)
                reply.run(write, lambda: not lines.empty())
                write("")
            elif reply is not None:
                write(reply + "\n")

    def cmd_protocol_version(self):
        return "2"

    def cmd_known_command(self, name):
        return "true" if name.lower() in self.commands() else "false"

    def cmd_list_commands(self):
        return "\n".join(self.commands())

    def commands(self):
        return sorted(_command_name(m[4:]) for m in dir(self) if m.startswith("cmd_"))

    def cmd_quit(self):
        self.quit = True

_TOO_LONG = object()          # read_lines' mark of a line over MAX_LINE characters


def read_lines(stdin, lines):
    """Put the lines of ``stdin`` on the queue ``lines`` (``_TOO_LONG`` for a line over
    ``MAX_LINE`` characters, whose rest is skipped unread), then None at the end."""
    try:
        while True:
            raw = stdin.readline(MAX_LINE + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE and not raw.endswith("\n"):
                while True:
                    rest = stdin.readline(MAX_LINE)
                    if not rest or rest.endswith("\n"):
                        break
                raw = _TOO_LONG
            lines.put(raw)
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    lines.put(None)


def success(ident, result):
    """A success reply formatted as GNU Go formats it: the first line of ``result`` on the
    ``=`` line (``= aa_confirm_safety``), the others after it; an empty first line (a board
    diagram) leaves ``= `` alone on its line. Other empty lines are dropped, since an empty
    line ends a GTP reply."""
    first, *rest = result.split("\n")
    rest = [x for x in rest if x.strip()]
    if not rest:
        return f"={ident} {first}".rstrip()
    return "\n".join([f"={ident} {first}"] + rest)


def int_arg(text):
    try:
        return int(text)
    except ValueError:
        raise GtpError("syntax error") from None


def number_arg(text):
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if not math.isfinite(value) or value < 0:
        raise GtpError("syntax error")
    return value


def _syntax():
    raise GtpError("syntax error")


def _command(line):
    """The command of an input line, lower case, without its id ("" if none)."""
    words = preprocess(line).split()
    if words and words[0].isdigit():
        words = words[1:]
    return words[0].lower() if words else ""


def _command_name(method):
    """GTP name of a ``cmd_`` method: ``kgs_genmove_cleanup`` is ``kgs-genmove_cleanup``,
    ``lz_analyze`` is ``lz-analyze``; the others keep their underscores."""
    for prefix in _PREFIXES:
        if method.startswith(prefix):
            return prefix[:-1] + "-" + method[len(prefix):]
    return method


def _accepts(method, count):
    """True if ``method`` takes ``count`` positional arguments."""
    code = method.__func__.__code__
    required = code.co_argcount - 1 - len(method.__func__.__defaults__ or ())
    if code.co_flags & 0x04:                  # *args
        return count >= required
    return required <= count <= code.co_argcount - 1


