"""Backgammon notation (plain Python over the state of :mod:`games.backgammon.kernels`).

A move is written from the mover's side, points numbered 1-24 towards the mover's home
(1-6), as OpenSpiel's action strings are: ``bar`` for the bar, ``off`` for bearing off. An
action's checker moves are written in the order played, each ``from/to``, with ``*`` where a
blot is hit: ``24/18 13/11``, ``bar/22*``, ``6/off``; a checker moving twice is chained,
``13/9/8``; two equal moves are ``6/5(2)``; a turn with no move is ``pass``. Since OpenSpiel's
actions also say which die goes first, ``24/23 24/20`` (the 1 first) and ``24/20 24/23`` (the 4
first) are two actions with one result; and where two actions would read alike (bearing off
two checkers with larger dice, e.g. ``3/off 2/off`` with 6-5) the die of a bear-off is given in
brackets: ``3/off[6] 2/off[5]``. A roll is ``roll 3-5`` (the outcome's ordered dice; the
opening roll adds who starts: ``roll 1-2 (X starts)``).

Parsing accepts that, any order of the checker moves, ``*`` or not, upper or lower case, ``b``
and ``o`` for bar and off, ``25`` and ``0`` too, and an action's number.
"""
import re

import numpy as np

from games.backgammon.rules import (BAR, DIE_HI, DIE_LO, LOW_FIRST, NONE_DIGIT, OFF,
                                    OPENING_OUTCOMES, PASS, PREV, ROLLS, ROLL_OUTCOMES, SIDE,
                                    STATUS, TO_PLAY, TURNS)
from games.contract import CHANCE, ONGOING

PLAYERS = ("X", "O")
MOVE_HELP = ("checker moves from your side, points 1-24 with your home at 1-6: e.g. "
             "'24/18 13/11', 'bar/22', '6/off', '13/9/8', '6/5(2)' (a double is played as "
             "two moves of two checkers each), or 'pass' when you cannot move; a roll is "
             "'roll 3-5'; an action number works too")

_POINT = r"(bar|b|off|o|\d{1,2})"
_HOP_TOKEN = re.compile(_POINT + r"\*?(\[\d\])?((?:/" + _POINT + r"\*?(?:\[\d\])?)+)(\((\d)\))?$")
_STEP = re.compile(r"/" + _POINT + r"\*?(\[(\d)\])?")
_ROLL = re.compile(r"^(roll\s*)?([1-6])\s*(-?)\s*([1-6])\s*(?:\(?\s*([xo])\s+starts\s*\)?)?$")
_NUMBER = re.compile(r"^(?:#|action\s*)?(\d+)$")
_SUFFIX = re.compile(r"^(.*?)\s*\(action\s*(\d+)\)$")


def point_name(r):
    return "bar" if r == BAR else "off" if r == OFF else str(r)


def mover(state):
    """The player whose side the board is seen from: the one to move, or at a roll the one
    about to move (X before the opening roll)."""
    p = int(state[TO_PLAY])
    if p == CHANCE:
        prev = int(state[PREV])
        return 0 if prev < 0 else 1 - prev
    return p


def hops(action, state):
    """The checker moves of player action ``action`` at ``state``, in the order played:
    ``[(from, to, die, hit)]`` in the mover's numbering (25 bar, 0 off); empty for a pass."""
    p = int(state[TO_PLAY])
    lo, hi = int(state[DIE_LO]), int(state[DIE_HI])
    high_first = action < LOW_FIRST
    x = action if high_first else action - LOW_FIRST
    digits = (x % 26, x // 26)
    dice = (hi, lo) if high_first else (lo, hi)
    theirs = state[SIDE * (1 - p):SIDE * (1 - p) + SIDE].astype(np.int64)
    out = []
    for dig, d in zip(digits, dice):
        if dig == NONE_DIGIT:
            continue
        frm = BAR if dig == 24 else (24 - dig if p == 0 else dig + 1)
        to = max(frm - d, OFF)
        hit = bool(to > 0 and theirs[25 - to] == 1)
        if hit:
            theirs[25 - to] = 0
        out.append((frm, to, d, hit))
    return out


def _hop_text(h, show_die):
    frm, to, d, hit = h
    die = f"[{d}]" if show_die and to == OFF and frm != d else ""
    return point_name(to) + ("*" if hit else "") + die


def move_text(hs, show_die=False):
    """The notation of a list of :func:`hops` (``pass`` when empty)."""
    if not hs:
        return "pass"
    if len(hs) == 2 and hs[0][:2] == hs[1][:2] and not show_die:
        return f"{point_name(hs[0][0])}/{_hop_text(hs[0], False)}(2)"
    if len(hs) == 2 and hs[1][0] == hs[0][1] and hs[0][1] != OFF:
        return (f"{point_name(hs[0][0])}/{_hop_text(hs[0], show_die)}"
                f"/{_hop_text(hs[1], show_die)}")
    return " ".join(f"{point_name(h[0])}/{_hop_text(h, show_die)}" for h in hs)


def roll_text(outcome, state=None):
    a, b = int(ROLLS[outcome][0]), int(ROLLS[outcome][1])
    text = f"roll {a}-{b}"
    if state is not None and int(state[TURNS]) < 0:
        text += f" ({PLAYERS[outcome % 2]} starts)"
    return text


def move_texts(state, legal):
    """``{action: notation}`` for the legal player actions ``legal`` at ``state``: plain, or
    with the dice of bear-offs in brackets where two actions would read alike (and, should
    that not tell them apart, the action's number)."""
    hs = {a: hops(a, state) for a in legal}
    plain = {a: move_text(h) for a, h in hs.items()}
    seen = {}
    for text in plain.values():
        seen[text] = seen.get(text, 0) + 1
    out = {}
    for a, text in plain.items():
        out[a] = text if seen[text] == 1 else move_text(hs[a], show_die=True)
    seen = {}
    for text in out.values():
        seen[text] = seen.get(text, 0) + 1
    return {a: text if seen[text] == 1 else f"{text} (action {a})" for a, text in out.items()}


def format_action(action, state, texts):
    """The notation of ``action`` at ``state``; ``texts``: :func:`move_texts` there (None at a
    chance or final position, or without a state)."""
    action = int(action)
    if state is None or int(state[STATUS]) != ONGOING:
        return f"action {action}"
    if int(state[TO_PLAY]) == CHANCE:
        limit = OPENING_OUTCOMES if int(state[TURNS]) < 0 else ROLL_OUTCOMES
        return roll_text(action, state) if 0 <= action < limit else f"action {action}"
    if action in texts:
        return texts[action]
    if action == PASS:
        return "pass"
    if not 0 <= action < PASS or action % LOW_FIRST % 26 == NONE_DIGIT:
        return f"action {action}"
    return move_text(hops(action, state))      # not legal here: its plain reading


def _point(word):
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    n = int(word)
    if not 0 <= n <= 25:
        raise ValueError(f"there is no point {n}: points are 1-24, bar and off")
    return n


def parse_hops(text):
    """``[(from, to, die or None)]`` of typed checker moves, in the order typed."""
    out = []
    for token in re.split(r"[\s,]+", text.strip().lower()):
        if not token:
            continue
        m = _HOP_TOKEN.match(token)
        if not m:
            raise ValueError(f"{token!r} is not a checker move: write from/to, e.g. 13/9, "
                             f"bar/22, 6/off, 13/9/8 or 6/5(2)")
        frm = _point(m.group(1))
        chain = []
        for step in _STEP.finditer(m.group(3)):
            to = _point(step.group(1))
            chain.append((frm, to, int(step.group(3)) if step.group(3) else None))
            frm = to
        if m.group(2):                                   # a die written after the start
            raise ValueError(f"{token!r}: a die in brackets goes after the point reached")
        out.extend(chain * (int(m.group(6)) if m.group(6) else 1))
    if len(out) > 2:
        raise ValueError(f"{text.strip()!r} has {len(out)} checker moves: an action plays at "
                         "most two (a double is played as two actions of two moves each)")
    return out


def _matches(typed, hs, ordered):
    """Do the typed checker moves ``[(from, to, die or None)]`` name :func:`hops` ``hs``
    (in that order, or with ``ordered`` False in either order)?"""
    if len(typed) != len(hs):
        return False
    orders = [typed] if ordered or len(typed) < 2 else [typed, typed[::-1]]
    return any(all(t[:2] == h[:2] and t[2] in (None, h[2]) for t, h in zip(order, hs))
               for order in orders)


def parse_roll(text, state):
    """The chance outcome of a typed roll (``roll 3-5``, ``3-5``, ``roll 35``)."""
    m = _ROLL.match(text)
    if not m or not (m.group(1) or m.group(3)):
        raise ValueError(f"{text!r} is not a roll: the dice are to be rolled; write e.g. "
                         "'roll 3-5'")
    a, b = int(m.group(2)), int(m.group(4))
    opening = int(state[TURNS]) < 0
    limit = OPENING_OUTCOMES if opening else ROLL_OUTCOMES
    for k in range(limit):
        if (int(ROLLS[k][0]), int(ROLLS[k][1])) == (a, b):
            break
    else:
        raise ValueError(f"the opening roll is never a double ({a}-{b})")
    if m.group(5):
        if not opening:
            raise ValueError("who starts is only decided by the opening roll")
        if PLAYERS[k % 2].lower() != m.group(5):
            raise ValueError(f"with the opening roll {a}-{b}, {PLAYERS[k % 2]} starts "
                             f"(the first die is X's, the second O's)")
    return k


def parse_action(text, state, legal, texts):
    """The action ``text`` names at ``state`` (``legal``: its legal actions, or the roll's
    outcomes at a chance position; ``texts``: :func:`move_texts`, None at a chance
    position); ``ValueError`` saying why if none."""
    t = text.strip().lower()
    if int(state[STATUS]) != ONGOING:
        raise ValueError("the game is over")
    if not t:
        raise ValueError("no move given: " + MOVE_HELP)
    number = _NUMBER.match(t) or _SUFFIX.match(t)
    if number:
        a = int(number.group(number.lastindex))
        if a not in legal:
            raise ValueError(f"action {a} is not legal here")
        return a
    if int(state[TO_PLAY]) == CHANCE:
        return parse_roll(t, state)
    if t.startswith("roll"):
        raise ValueError("the dice are already rolled: play a move")
    if t == "pass":
        if PASS in legal:
            return PASS
        raise ValueError("you cannot pass: you have a legal move, e.g. " + texts[legal[0]])
    for a in legal:                                  # exactly as written
        if texts[a] == t:
            return a
    typed = parse_hops(t)
    hs = {a: hops(a, state) for a in legal}
    for ordered in (True, False):
        found = [a for a in legal if _matches(typed, hs[a], ordered)]
        if found:
            return min(found)
    sample = ", ".join(texts[a] for a in legal[:8])
    more = f" (and {len(legal) - 8} more)" if len(legal) > 8 else ""
    lo, hi = int(state[DIE_LO]), int(state[DIE_HI])
    raise ValueError(f"{text.strip()!r} is not a legal move with {hi}-{lo} here; legal: "
                     f"{sample}{more}")
