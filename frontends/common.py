"""Pieces shared by the terminal front ends: consoles, game and engine construction, budgets."""
import contextlib
import os
import re
import stat
import sys

from numba.core.errors import NumbaError
from rich.console import Console

import games

DEFAULT_SECONDS = 1.0
# User text (moves, paths, error messages quoting them) may contain "[...]" or ":name:":
# errors print without markup, and the main console's markup-using lines escape user text.


class _Console(Console):
    """rich's console, but a closed standard output raises BrokenPipeError (after pointing
    it at the null device, as rich does) instead of exiting at once, so that a command can
    still save its work (`play` saves the game; cli.main then exits quietly)."""

    def on_broken_pipe(self):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        raise BrokenPipeError("standard output closed")


console = _Console(highlight=False, emoji=False, soft_wrap=True)   # whole lines in pipes and logs
err = Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)


class UsageError(Exception):
    """A bad flag value or game parameter: reported in one line, exit status 2."""


def exit_code(command, *args, interrupted="interrupted"):
    """Run ``command(*args)`` for a script's ``main``: 0 when it returns, 2 with one line
    ("error: ...") on standard error for a ``UsageError``, ``RuntimeError`` (an engine that
    fails) or ``OSError`` (a file), 130 with the line ``interrupted`` for Ctrl-C."""
    try:
        command(*args)
    except (UsageError, RuntimeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(interrupted, file=sys.stderr)
        return 130
    return 0


def read_bounded(path, limit):
    """The bytes of the regular file ``path``, read to at most ``limit`` bytes (FIFOs are
    opened without waiting for a writer). ``ValueError`` for a file that is not regular or is
    larger than ``limit``, ``OSError`` for one that cannot be opened or read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return data


def compile_error(name, e):
    """A one-line report of numba's failure to compile the kernels of game ``name`` (its
    message runs over many lines, with terminal colours): the first line and the place."""
    lines = [ln.strip() for ln in re.sub(r"\x1b\[[0-9;]*m", "", str(e)).splitlines()
             if ln.strip()]
    where = next((ln for ln in lines if ln.startswith('File "')), "")
    return (f"the kernels of {name} do not compile: {lines[0] if lines else type(e).__name__}"
            f"{' (' + where + ')' if where else ''}; `cli.py check {name}` tells more")


def make_game(args):
    """The game ``args.game`` with the parameters given on the command line
    (``args.game_params``, filled in by cli.py from the game's declared parameters)."""
    try:
        return games.get(args.game, **args.game_params)
    except ValueError as e:
        raise UsageError(str(e)) from None
    except NumbaError as e:
        raise UsageError(compile_error(args.game, e)) from None


def output_file(path, suffix=""):
    """``path``, checked before the work so that a typo does not cost the results: it must
    end in ``suffix`` if one is given (numpy adds ``.npz`` to any other name: the file
    written is the one named), be a regular file or not exist yet, and its folder must exist
    and take a new file (a probe file is created and removed). ``UsageError`` in one line."""
    from frontends.argtypes import file_kind
    if not path:
        raise UsageError("give a file name to write (got an empty one)")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UsageError(f"cannot write {path}: it is {file_kind(st.st_mode)}, not a regular "
                         "file")
    if suffix and not path.endswith(suffix):
        raise UsageError(f"cannot write {path}: name a {suffix} file (e.g. {path}{suffix})")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write {path}: the folder {folder} does not exist")
    _probe(folder, f"cannot write {path}")
    return path


def _probe(folder, what):
    """Create and remove a file in ``folder``: ``UsageError`` "WHAT: REASON" if that fails
    (``os.access`` says yes to root even where nothing can be created, as in /proc)."""
    import tempfile
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)
        os.close(fd)
        os.remove(probe)
    except OSError as e:
        raise UsageError(f"{what}: no file can be created in {folder} ({e.strerror or e})") \
            from None


def output_folder(path, create=True):
    """Check, before the work, that files can be written in the folder ``path``;
    ``UsageError`` in one line if not. With ``create`` the folder is made now; without, a
    folder still missing is only checked (its nearest existing parent must take it) and is
    made by the writer (``play``: a game without a move leaves nothing behind)."""
    if not path:
        raise UsageError("give a folder name (got an empty one)")
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"{path} is a file, not a folder")
    if not create and not os.path.isdir(path):
        parent = os.path.dirname(os.path.abspath(path))
        while not os.path.exists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise UsageError(f"cannot create the folder {path}: {parent} is a file")
        _probe(parent, f"cannot create the folder {path}")
        return path
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create the folder {path}: {e.strerror}") from None
    _probe(path, f"cannot use the folder {path}")
    return path


@contextlib.contextmanager
def ray_errors(address):
    """Turn Ray's failures (not installed; a cluster at ``address`` that cannot be reached)
    into one-line ``UsageError``s; other errors pass through."""
    try:
        yield
    except ImportError:
        raise UsageError("--ray needs Ray: pip install -e '.[ray]'") from None
    except (ConnectionError, RuntimeError) as e:
        if not address:
            raise
        raise UsageError(f"--ray {address}: cannot use that Ray cluster ({e})") from None
