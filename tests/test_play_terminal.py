"""`play` in the terminal: starting from a position (--moves, Go's --sgf), the question
before a game-ending pass, what the AI's move line says, prompts within 80 columns, no SGF
for a game without a move, a save that falls back on the temporary folder."""

import pytest

import games
from frontends import play, play_end
from frontends.player import PlayerConfig
from games.go.sgf import from_sgf
from mcts.results import Proof, SearchResult
from test_bad_input import one_line
from test_cli import record_of, run
from test_play_start import Loading

SGF = b"(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]AB[cg][gc];W[ee];B[dc];W[ce])"   # D3 and G7, then 3 moves


def error_line(p):
    line = one_line(p)
    assert "to move" not in p.stdout                # refused before the game
    return line


@pytest.fixture
def sgf_file(tmp_path):
    path = tmp_path / "h.sgf"
    path.write_bytes(SGF)
    return str(path)


# -- 1. Starting positions -------------------------------------------------------------------

def test_moves_start_a_game_and_undo_stops_there():
    """After 4453 X is to move: the human plays it by default; the first undo has nothing of
    the human's to take back; the record starts with the moves given."""
    p = run("play", "connect4", "--moves", "4453", "--playouts", "200", "--threads", "1",
            stdin="undo\n4\nundo\nquit\n")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert "connect4: you are X." in p.stdout
    assert p.stdout.count("nothing to undo") == 1      # the second undo took back 4 and a reply
    record = record_of(p.stdout)
    assert record == "4453", record                     # undone to the start, no further


def test_first_ai_gives_the_ai_the_side_to_move():
    p = run("play", "tictactoe", "--moves", "12345769", "--first", "ai", "--playouts", "100",
            stdin="undo\n")
    assert p.returncode == 0, p.stderr
    assert "tictactoe: you are O." in p.stdout
    assert "AI plays 8: the only legal move (no search)" in p.stdout
    assert record_of(p.stdout) == "123457698"
    assert "result: draw" in p.stdout


def test_sgf_start_keeps_setup_stones_and_moves_in_the_saved_game(sgf_file, tmp_path):
    p = run("play", "go", "--sgf", sgf_file, "--move", "1", "--playouts", "50", "--threads",
            "1", "--sgf-dir", str(tmp_path / "out"), stdin="undo\nd4\nquit\n")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert "go: you are Black." in p.stdout and "nothing to undo" in p.stdout
    record = record_of(p.stdout).split()
    assert record[:2] == ["E5", "D4"] and len(record) == 3
    [saved] = (tmp_path / "out").glob("*.sgf")
    data = from_sgf(saved.read_bytes())
    game = games.get("go")
    assert (data["size"], data["komi"], data["handicap"]) == (9, 0.5, 2)
    assert sorted(game.format_move(a) for a in data["setup_black"]) == ["C3", "G7"]
    assert data["setup_white"] == []
    assert [(p_, game.format_move(a)) for p_, a in data["moves"][:2]] == [(1, "E5"), (0, "D4")]
    assert data["moves"][2][0] == 1 and len(data["moves"]) == 3


def test_sgf_setup_only_and_a_komi_flag_that_wins(sgf_file, tmp_path):
    """--move 0: the setup stones alone; White is to move after Black's handicap stones, so
    the human is White; --komi given wins over KM."""
    p = run("play", "go", "--sgf", sgf_file, "--move", "0", "--komi", "6.5", "--playouts", "50",
            "--threads", "1", "--sgf-dir", str(tmp_path / "out"), stdin="e5\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "go: you are White." in p.stdout
    [saved] = (tmp_path / "out").glob("*.sgf")
    data = from_sgf(saved.read_bytes())
    assert data["komi"] == 6.5 and data["moves"][0] == (1, games.get("go").parse_move(
        "E5", games.get("go").initial_state()))


@pytest.mark.parametrize("args, message", [
    (["--size", "13"], "error: --size 13 disagrees with {f} (a board of 9x9): leave --size out"),
    (["--handicap", "3"],
     "error: --handicap 3 disagrees with {f} (a handicap of 2): leave --handicap out"),
    (["--move", "9"], "error: --move 9: {f} has 3 moves"),
    (["--size", "9", "--handicap", "2", "--move", "3", "--moves", "D4"],
     "error: argument --moves: not allowed with argument --sgf (see: python3 cli.py play "
     "--help)"),
])
def test_sgf_flags_that_disagree_with_the_file(sgf_file, args, message):
    assert error_line(run("play", "go", "--sgf", sgf_file, *args)) == message.format(f=sgf_file)


def test_bad_starts_are_one_line(tmp_path):
    over = tmp_path / "over.sgf"
    over.write_bytes(b"(;GM[1]SZ[5]KM[0.5];B[cc];W[];B[])")
    line = error_line(run("play", "go", "--sgf", str(over)))
    assert line.startswith(f"error: --sgf {over}: the game is over after 3 moves (Black wins")
    assert line.endswith("nothing to play; --move N starts from its first N moves")
    for name, data, message in (
            ("bad", b"(;GM[1]SZ[9];B[ee];W[ee])", "move 2 (W E5): E5 is not a legal move here"),
            ("clash", b"(;GM[1]SZ[9]AB[ee][cc]AW[ee];B[gg])",
             "setup stones of both colours (AB and AW) on E5"),
            ("nan", b"(;GM[1]SZ[9]KM[nan];B[gg])", "KM[nan]: not a number")):
        path = tmp_path / f"{name}.sgf"
        path.write_bytes(data)
        assert error_line(run("play", "go", "--sgf", str(path))) == (
            f"error: --sgf {path}: {message}")
    bad = tmp_path / "bad.sgf"
    junk = tmp_path / "junk.sgf"
    junk.write_bytes(b"\x00\xff not sgf")
    assert error_line(run("play", "go", "--sgf", str(junk))).startswith(
        f"error: --sgf {junk}: not a valid SGF file")
    assert error_line(run("play", "connect4", "--sgf", str(bad))) == (
        "error: --sgf reads Go records; connect4 starts from --moves")
    assert error_line(run("play", "connect4", "--move", "3")) == (
        "error: --move N picks a position of an SGF file: give --sgf FILE")
    assert error_line(run("play", "connect4", "--moves", "4x")) == (
        "error: --moves: move 2 ('x') of '4x': 'x' is not a column: type a number from 1 to 7")
    assert error_line(run("play", "tictactoe", "--moves", "1425367")) == (
        "error: --moves: the game is over after move 5 of '1425367'")


# -- 2. A pass that ends the game asks first -------------------------------------------------

QUESTION = ("Your pass would end the game: White wins (W+7.5): Chinese count (0 dead stones "
            "removed): Black 0, White 0, komi 7.5. Type pass again to end it, or a move to go "
            "on.")


def test_a_game_ending_pass_is_asked_and_a_move_goes_on(tmp_path):
    p = run("play", "go", "--size", "5", "--moves", "pass", "--playouts", "50", "--threads", "1",
            "--sgf-dir", str(tmp_path), stdin="pass\nc3\nquit\n")
    assert p.returncode == 0, p.stderr
    assert [x for x in p.stdout.splitlines() if x.endswith(QUESTION)] == [
        "White to move (a vertex like D4, or pass; or help): " + QUESTION]
    record = record_of(p.stdout).split()
    assert record[:2] == ["pass", "C3"] and len(record) == 3
    assert "result: unfinished" in p.stdout


def test_pass_again_ends_the_game(tmp_path):
    p = run("play", "go", "--size", "5", "--moves", "pass", "--playouts", "50", "--threads", "1",
            "--sgf-dir", str(tmp_path), stdin="pass\npass\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("Your pass would end the game") == 1
    assert record_of(p.stdout) == "pass pass"
    assert ("result: White wins (W+7.5): Chinese count (0 dead stones removed): Black 0, "
            "White 0, komi 7.5") in p.stdout
    [saved] = tmp_path.glob("*.sgf")
    assert from_sgf(saved.read_bytes())["result"] == "W+7.5"


# -- 3. The AI's move line -------------------------------------------------------------------

def test_a_proven_move_says_so_without_a_rate():
    p = run("play", "connect4", "--moves", "21654512623411561522354715467", "--first", "ai",
            "--playouts", "2000", "--threads", "1", stdin="quit\n")
    assert p.returncode == 0, p.stderr
    [line] = [x for x in p.stdout.splitlines() if x.startswith("AI plays")]
    assert line == ("AI plays 6: I win in 13 (plies, both sides), proven by the solver after 8 "
                    "playouts")


@pytest.mark.parametrize("kw, note", [
    (dict(playouts=5, seconds=0.003), "5 playouts"),
    (dict(playouts=2000, seconds=2.0), "1,000 playouts/s (2,000 playouts in 2.00 s)"),
    (dict(playouts=8, seconds=0.002, proof=Proof.WIN, plies=5),
     "proven by the solver after 8 playouts"),
])
def test_the_search_note(kw, note):
    assert play.search_note(SearchResult(action=0, move="4", value=0.5, **kw)) == note


# -- 4. Prompts ------------------------------------------------------------------------------

def _every_builtin_game():
    for name in games.names():
        if games.origin(name) != "built-in":
            continue
        counts = [None]
        declared = {p.name: p for p in games.parameters(name)}
        if "players" in declared:
            counts = list(declared["players"].choices or range(int(declared["players"].low),
                                                               int(declared["players"].high) + 1))
        for n in counts:
            yield games.get(name) if n is None else games.get(name, players=n)


def test_every_prompt_leaves_room_for_the_move():
    seen = 0
    for game in _every_builtin_game():
        for player in range(game.num_players):
            text = play.prompt(game, player)
            assert len(text) <= play.PROMPT_WIDTH, text
            seen += 1
    assert seen >= 20
    go, c4 = games.get("go"), games.get("connect4")
    assert play.prompt(go, 1) == "White to move (a vertex like D4, or pass; or help): "
    assert play.prompt(c4, 0) == "X to move (a column 1-7, or undo, hint, help, quit): "


# -- 5. Saving ---------------------------------------------------------------------------------

def test_no_sgf_without_a_move(tmp_path):
    folder = tmp_path / "new" / "games"         # made only when a game is saved
    for stdin in ("quit\n", ""):                # quit, and end of input
        p = run("play", "go", "--size", "5", "--playouts", "50", "--sgf-dir", str(folder),
                stdin=stdin)
        assert p.returncode == 0 and "no move played: nothing saved" in p.stdout, p.stderr
    assert list(tmp_path.iterdir()) == []
    p = run("play", "go", "--size", "5", "--playouts", "50", "--threads", "1", "--sgf-dir",
            str(folder), stdin="c3\n")
    [saved] = folder.glob("*.sgf")
    assert len(from_sgf(saved.read_bytes())["moves"]) == 2


def test_a_failed_save_falls_back_on_the_temporary_folder(tmp_path, monkeypatch, capsys):
    game = games.get("go", size=5)
    engine = PlayerConfig(threads=1, playouts=10).engine(game)
    s = play.Session(game, Loading(engine), 0, PlayerConfig(threads=1))
    s.play(game.parse_move("C3", s.state))
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    s.save_dir = str(blocker / "games")          # cannot be created any more
    monkeypatch.setattr(play_end.tempfile, "gettempdir", lambda: str(tmp_path))
    play_end.finish(s)
    out, err = capsys.readouterr()
    [saved] = tmp_path.glob("*.sgf")
    assert f"game saved to {saved}" in out
    assert err.strip() == (f"could not save the game in {blocker / 'games'} (Not a directory): "
                           "saved in the temporary folder instead")
