"""frontends.gtp_client.GtpClient, the GTP client of `cli.py match` and the lab tools: against
GNU Go (skipped when it is absent) and against a tiny scripted engine that answers ``?``,
answers with several lines or an id, prints something that is not GTP, hangs or dies."""
import os
import shutil
import sys

import pytest

from frontends.gtp_client import (EngineExited, EngineStartError, EngineTimeout, GtpClient,
                                  GtpClientError, GtpRefused, NotGtp)

GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"

FAKE = r'''
import sys, time
print("fake engine starting", file=sys.stderr, flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    ident = words.pop(0) if words[0].isdigit() else ""
    name = words[0]
    if name == "name":
        reply = "= fake"
    elif name == "multi":
        reply = "= first\nsecond  \r"
    elif name == "cwd":
        reply = "= " + __import__("os").getcwd()
    elif name == "junk":
        print("hello there", flush=True)
        continue
    elif name == "hang":
        time.sleep(30)
        continue
    elif name == "die":
        print("out of memory", file=sys.stderr, flush=True)
        sys.exit(3)
    elif name == "quit":
        print(f"={ident}\n", flush=True)
        break
    else:
        reply = "? unknown command"
    print("\n" if name == "name" else "", end="")   # a stray empty line before one reply
    print(reply[0] + ident + reply[1:] + "\n", flush=True)
'''


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE)
    return [sys.executable, str(path)]


def test_replies_ok_refused_multiline_and_numbered(fake):
    engine = GtpClient(fake, timeout=10)
    assert engine.send("name") == (True, "fake")
    assert engine.send("frobnicate") == (False, "unknown command")
    assert engine.send("multi") == (True, "first\nsecond")
    assert engine.send("12 name") == (True, "fake")
    assert engine.ask("name") == "fake"
    with pytest.raises(GtpRefused) as e:
        engine.ask("frobnicate e5")
    assert str(e.value) == (f"the engine {engine.command!r} refused 'frobnicate e5': "
                            "unknown command")
    assert engine.send("name") == (True, "fake")          # a refusal does not spend it
    assert engine.seconds > 0
    assert engine.close() == 0
    assert engine.close() == 0                              # twice: nothing more


def test_a_dying_engine_is_a_clear_error_with_its_last_words(fake):
    engine = GtpClient(fake, timeout=10, keep_stderr=True)
    assert engine.send("name") == (True, "fake")
    with pytest.raises(EngineExited) as e:
        engine.send("die")
    assert str(e.value) == (f"the engine {engine.command!r} exited (status 3) before answering "
                            "'die'; its last error output: fake engine starting | out of memory")
    with pytest.raises(EngineExited):                       # spent: the same error again
        engine.send("name")
    assert engine.close() == 3
    assert engine.stderr_text() == "fake engine starting\nout of memory\n"


def test_without_keep_stderr_the_error_names_the_status_only(fake):
    engine = GtpClient(fake, timeout=10)
    with pytest.raises(EngineExited) as e:
        engine.send("die")
    assert str(e.value) == (f"the engine {engine.command!r} exited (status 3) before "
                            "answering 'die'")
    assert engine.stderr_text() == ""
    engine.close()


def test_a_reply_that_is_not_gtp(fake):
    engine = GtpClient(fake, timeout=10)
    with pytest.raises(NotGtp) as e:
        engine.send("junk")
    assert str(e.value) == (f"the engine {engine.command!r} does not speak GTP: it answered "
                            "'hello there' to 'junk'")
    engine.close()


def test_a_hung_engine_times_out_and_is_killed(fake):
    engine = GtpClient(fake, timeout=10)
    with pytest.raises(EngineTimeout) as e:
        engine.send("hang", timeout=0.5)
    assert str(e.value) == (f"the engine {engine.command!r} gave no GTP reply to 'hang' "
                            "within 0.5 s")
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, GtpClientError)
    assert engine.close() != 0                              # killed, not waited for 30 s


def test_a_command_that_cannot_start(tmp_path):
    with pytest.raises(EngineStartError) as e:
        GtpClient(f"{tmp_path}/no-such-engine --mode gtp")
    assert str(e.value) == (f"cannot start '{tmp_path}/no-such-engine --mode gtp': "
                            "No such file or directory")
    with pytest.raises(EngineStartError) as e:
        GtpClient("  ")
    assert str(e.value) == "cannot start '  ': empty command"


def test_the_working_folder_and_the_context_manager(fake, tmp_path):
    with GtpClient(fake, timeout=10, cwd=tmp_path) as engine:
        assert engine.send("cwd") == (True, str(tmp_path))
    assert engine.proc.returncode == 0


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK),
                    reason="GNU Go not installed (.ci/run installs it)")
def test_against_gnugo():
    engine = GtpClient(f"{GNUGO} --mode gtp --chinese-rules", timeout=60)
    assert engine.send("name") == (True, "GNU Go")
    assert engine.send("7 protocol_version") == (True, "2")
    assert engine.send("boardsize 9") == (True, "")
    assert engine.send("play b e5") == (True, "")
    assert engine.send("play w e5") == (False, "illegal move")
    with pytest.raises(GtpRefused) as e:
        engine.ask("play w e5")
    assert str(e.value) == f"the engine {engine.command!r} refused 'play w e5': illegal move"
    assert engine.send("frobnicate") == (False, "unknown command")
    assert engine.ask("list_stones black") == "E5"
    move = engine.ask("genmove w")
    assert move != "E5" and move[0] in "ABCDEFGHJ" and 1 <= int(move[1:]) <= 9
    assert engine.ask("final_score").startswith(("B+", "W+"))
    assert engine.close() == 0
