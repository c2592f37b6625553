"""A build's progress: a bar redrawn in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

from deckpress.cli import Progress


def test_on_a_terminal_one_line_is_redrawn_with_a_bar(capsys):
    progress = Progress(quiet=False)
    progress.tty = True
    for done in range(1, 5):
        progress("deck: drawing faces", done, 4)
    progress.warn("decks/x.yaml:3:5: warning: a placeholder")
    progress("deck: pdf")
    progress.clear()
    err = capsys.readouterr().err
    frames = err.split("\r\x1b[K")
    assert "deck: drawing faces [######..................]  25%" in frames
    assert "deck: drawing faces [########################] 100%" in frames
    assert "decks/x.yaml:3:5: warning: a placeholder\n" in frames  # on a line of its own
    assert err.endswith("\r\x1b[K") and "\n" not in err.replace("a placeholder\n", "")


def test_elsewhere_plain_lines_every_tenth_face(capsys):
    progress = Progress(quiet=False)
    progress.tty = False
    for done in range(1, 24):
        progress(f"deck: drawing faces {done}/23", done, 23)
    progress("deck: pdf")
    assert capsys.readouterr().err.splitlines() == [
        "deck: drawing faces 10/23", "deck: drawing faces 20/23", "deck: drawing faces 23/23", "deck: pdf"]


def test_quiet_prints_no_progress_but_warnings(capsys):
    progress = Progress(quiet=True)
    progress("deck: pdf")
    progress.warn("a warning")
    assert capsys.readouterr().err == "a warning\n"
