"""The end of a game of `play`: its result and record printed, the game saved (games that keep
records, Go's SGF) once a move was played in the session, in the temporary folder if the
folder chosen (checked at the start) fails by then."""
import os
import tempfile

from frontends.common import console, err


def finish(session, quiet=False):
    """Print the result and the record (unless ``quiet``) and save the game if the game keeps
    records; a failed save is reported on stderr."""
    g = session.rules
    if not quiet:
        console.print(f"result: {session.result()}")
        console.print(f"game record: {session.record() or '(no moves)'}", markup=False)
    if not session.played():
        if g.saves_games and not quiet:
            console.print("no move played: nothing saved")
        return
    try:
        path = save(session, session.save_dir)
    except OSError as e:                # checked at the start: the folder went away since
        try:
            path = save(session, tempfile.gettempdir())
        except OSError:
            err.print(f"could not save the game: {e}")
            return
        err.print(f"could not save the game in {session.save_dir} ({e.strerror or e}): saved "
                  "in the temporary folder instead")
    if path and not quiet:
        console.print(f"game saved to {path}", markup=False)


def save(session, directory):
    """Save the game in ``directory`` (the game's ``save_game``, or for a Go game that
    started from an SGF file's setup stones, with them); its path or None."""
    g, start = session.rules, session.start
    moves = list(zip(session.movers, session.actions))
    if g.saves_games:
        os.makedirs(directory, exist_ok=True)       # checked before the game (output_folder)
    if start.setup_black or start.setup_white:
        from frontends.go_records import save_with_setup
        return save_with_setup(g, moves, session.state, session.resigned, directory,
                               start.setup_black, start.setup_white)
    return g.save_game(moves, session.state, session.resigned, directory)
