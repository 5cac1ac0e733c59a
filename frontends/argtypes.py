"""argparse value types of the command line: each refuses a bad value in one line.

The limits of every command's budget flags are declared here once: a search of at most
``MAX_MOVE_SECONDS`` (GTP's cap on a move, :mod:`frontends.timecontrol`) or ``MAX_PLAYOUTS``
playouts (node visit counts stay far below the int32 statistics of the tree), and wall times
of at most ``MAX_SECONDS``. Files the user names for reading are checked by
:func:`input_file` (a regular file of at most a given size) before anything is opened; files
and folders to write by :func:`frontends.common.output_file` and ``output_folder``.
"""
import argparse
import math
import os
import stat

from frontends.timecontrol import MAX_MOVE_SECONDS, MAX_SECONDS

MAX_PLAYOUTS = 1_000_000_000        # playouts of one search
MAX_EPISODES = 1_000_000            # self-play episodes of one run (their list and data are
                                    # held in memory)
MAX_INPUT_BYTES = 64 << 20          # a file named for reading (positions, weights) at most
MAX_SGF_BYTES = 8 << 20             # an SGF file (GTP's loadsgf, play --sgf) at most
THREADS_PER_CORE = 4                # --threads and local --workers above this many a core:
                                    # capped (each thread has its own workspace, 16 MiB with
                                    # Connect Four's solver table)


def _whole_number(text, least, says):
    """``text`` as an int of at least ``least``: digits (``_`` allowed, as Python's), or a
    whole number in exponent notation such as ``1e5``."""
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if math.isinf(number):
            raise argparse.ArgumentTypeError(f"{text!r} is too large") from None
        if math.isnan(number) or number != int(number):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        value = int(number)
    if value < least:
        raise argparse.ArgumentTypeError(f"{text!r} must be {says}")
    return value


def positive_int(text):
    return _whole_number(text, 1, "at least 1")


def non_negative_int(text):
    return _whole_number(text, 0, "0 or more")


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def _at_most(parse, limit, unit):
    """``parse`` (an argparse type) that also refuses values above ``limit`` in one line."""
    def check(text):
        value = parse(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"{text!r} is too large: at most {limit:,.0f} {unit}")
        return value
    check.__name__ = parse.__name__
    return check


search_seconds = _at_most(positive_float, MAX_MOVE_SECONDS, "seconds")    # per search
search_playouts = _at_most(positive_int, MAX_PLAYOUTS, "playouts")        # per search
wall_minutes = _at_most(positive_float, MAX_SECONDS / 60, "minutes")      # a whole run
episode_count = _at_most(positive_int, MAX_EPISODES, "episodes")


def core_cap():
    """The most threads (or local worker processes) a command runs: ``THREADS_PER_CORE`` a
    core of this machine."""
    return THREADS_PER_CORE * (os.cpu_count() or 1)


def non_negative_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a number from 0 up")
    return value


def probability(text):
    value = float(text) if text.replace(".", "", 1).isdigit() else -1.0
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number from 0 to 1")
    return value


def from_declaration(decl):
    """An argparse type that parses with a declaration's ``parse`` (a
    :class:`games.contract.Param` or :class:`mcts.config.Option`), refusing a bad value in
    one line that names the allowed values."""
    def parse(text):
        try:
            return decl.parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    parse.__name__ = decl.name          # argparse names the type in some messages
    return parse


class FileError(argparse.ArgumentTypeError, ValueError):
    """A file named on the command line that cannot be used (one line): argparse reports it
    as a bad value; callers outside argparse catch it as a ``ValueError``."""


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def file_kind(mode) -> str:
    """What a ``st_mode`` is, for messages: "a folder", "a FIFO (named pipe)", ..."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def check_input_file(path, limit=MAX_INPUT_BYTES) -> str:
    """``path`` if it names a regular file of at most ``limit`` bytes (checked with
    ``os.stat``, without opening it: a FIFO nobody writes would block); else
    ``FileError`` in one line. Read it with :func:`read_input`."""
    if not path:
        raise FileError("give a file name (got an empty one)")
    try:
        st = os.stat(path)
    except OSError as e:
        raise FileError(f"cannot read {path}: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileError(f"cannot read {path}: it is {file_kind(st.st_mode)}, not a regular "
                        "file")
    if st.st_size > limit:
        raise FileError(f"cannot read {path}: larger than {limit >> 20} MB")
    return path


def input_file(limit=MAX_INPUT_BYTES):
    """An argparse type for a file to read: :func:`check_input_file` with ``limit``."""
    def parse(text):
        return check_input_file(text, limit)
    parse.__name__ = "file"
    return parse


def read_input(path, limit=MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), checked again as it is
    opened (it may have been replaced since the command line was parsed); a file of the
    kernel's such as /proc's (a "regular" file of size 0 that has content) is refused.
    ``ValueError`` in one line ("cannot read PATH: ...") otherwise."""
    from frontends.common import read_bounded
    check_input_file(path, limit)
    try:
        data = read_bounded(path, limit)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise ValueError(f"cannot read {path}: {e}") from None
    if data and os.stat(path).st_size == 0:
        raise ValueError(f"cannot read {path}: a special file (its size is unknown, as in "
                         "/proc), not a regular file")
    return data


def read_text(path, limit=MAX_INPUT_BYTES) -> str:
    """:func:`read_input` decoded as UTF-8 text; ``ValueError`` naming the line of the
    first byte that is not (a binary file)."""
    data = read_input(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise ValueError(f"cannot read {path}: line {line} is not UTF-8 text (byte {e.start}): "
                         "a binary file?") from None
