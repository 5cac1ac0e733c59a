"""argparse value types of the command line: each refuses a bad value in one line."""
import argparse


def _whole_number(text, least, says):
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
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
