"""The `deckpress` command. Exit status: 0 success, 1 a mistake in a deck, 2 a usage error."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import click

from . import __version__, reference
from .build import build_deck
from .context import BuildOptions
from .deck import load_deck
from .errors import DeckError
from .builders import CHECKS
from .faces import check_faces
from .schema import MAX_BACK_OFFSET, json_schema

DECKS_DIR = Path("decks")


def resolve_decks(names: tuple[str, ...]) -> list[Path]:
    """Deck names (`score`) or paths (`decks/score.yaml`); none means every decks/*.yaml."""
    if not names:
        found = sorted(DECKS_DIR.glob("*.yaml"))
        if not found:
            raise click.UsageError(f"no decks found in {DECKS_DIR}/; name a deck file or run from the project "
                                   "folder")
        return found
    paths = []
    for name in names:
        path = Path(name)
        if path.suffix not in (".yaml", ".yml"):
            path = DECKS_DIR / f"{name}.yaml"
        if not path.is_file():
            known = ", ".join(p.stem for p in sorted(DECKS_DIR.glob("*.yaml"))) or "none"
            raise click.BadParameter(f"no deck {name!r} ({path} does not exist); decks here: {known}",
                                     param_hint="DECK")
        paths.append(path)
    return paths


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not two numbers; write X,Y in millimetres, e.g. 1.5,-0.5",
                                 param_hint="--back-offset") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (x, y)):
        raise click.BadParameter(f"{text!r}: each number must be finite and at most {MAX_BACK_OFFSET} mm either "
                                 "way; write X,Y in millimetres, e.g. 1.5,-0.5", param_hint="--back-offset")
    return (x, y)


def _report(err: DeckError) -> None:
    for problem in err.problems:
        click.echo(str(problem), err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckpress")
def main() -> None:
    """Build card games from YAML: faces, a Tabletop Simulator mod and print-and-play PDFs."""


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("build"), show_default=True,
              help="Folder to build into; each deck goes to OUT/<deck>/.")
@click.option("--lang", default=None, help="Language of the texts (default: each deck's own).")
@click.option("--asset-url", default=None, metavar="URL",
              help="Base URL the TTS images will be uploaded to (default: file:/// paths to the build).")
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge", show_default=True,
              help="How your printer flips duplex pages; the PDF's back pages are laid out to match.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Shift of the back pages in mm, measured with the calibration sheet.")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def build(decks: tuple[str, ...], out: Path, lang: str | None, asset_url: str | None, duplex: str,
          back_offset: str, quiet: bool) -> None:
    """Build DECKs (names like `score`, or paths; default: every decks/*.yaml)."""
    options = BuildOptions(out=out, lang=lang, asset_url=asset_url, quiet=quiet,
                           extra={"duplex": duplex, "back_offset": _offset(back_offset)})
    echo = (lambda msg: None) if quiet else (lambda msg: click.echo(msg, err=True))
    failed = False
    for path in resolve_decks(decks):
        try:
            summary = build_deck(path, options, echo)
        except DeckError as err:
            _report(err)
            failed = True
            continue
        if not quiet:
            click.echo(summary)
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--lang", default=None, help="Language to check the texts in (default: each deck's own).")
def check(decks: tuple[str, ...], lang: str | None) -> None:
    """Validate DECKs without writing anything (every face is drawn in memory, so text that does not fit
    is reported too)."""
    failed = False
    for path in resolve_decks(decks):
        try:
            deck = load_deck(path, lang)
            check_faces(deck)
            for check_outputs in CHECKS:
                check_outputs(deck)
        except DeckError as err:
            _report(err)
            failed = True
            continue
        cards = sum(card.count for c in deck.model.components for card in c.cards)
        click.echo(f"{path}: ok ({len(deck.model.components)} components, {cards} cards and tokens)")
    sys.exit(1 if failed else 0)


@main.command()
@click.option("--markdown", is_flag=True, help="Print the reference page (docs/deck-format.md) instead.")
def schema(markdown: bool) -> None:
    """Print the deck format as JSON Schema, for YAML editors."""
    if markdown:
        click.echo(reference.markdown(), nl=False)
    else:
        click.echo(json.dumps(json_schema(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()


@main.command()
@click.argument("deck", metavar="DECK")
@click.option("--tts-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Tabletop Simulator data folder (default: TTS's own for this operating system).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("build"), show_default=True,
              help="Folder the deck was built into.")
@click.option("--force", is_flag=True, help="Also overwrite files deckpress did not write (or that were changed).")
def install(deck: str, tts_dir: Path | None, out: Path, force: bool) -> None:
    """Copy DECK's built TTS save, thumbnail and saved objects into Tabletop Simulator's folder."""
    from .tts.install import default_tts_dir, install as install_files

    name = Path(deck).stem
    built = out / name / "tts"
    if not (built / f"{name}.json").is_file():
        raise click.UsageError(f"{built / (name + '.json')} does not exist; run `deckpress build {name}` first")
    target = tts_dir or default_tts_dir()
    result = install_files(built, name, target, force=force)
    for path in result.written:
        click.echo(f"installed {path}")
    for path in result.unchanged:
        click.echo(f"up to date {path}")
    for path in result.refused:
        click.echo(f"{path}: not written by deckpress, or changed since; kept it (use --force to overwrite)",
                   err=True)
    if "file:///" in (built / f"{name}.json").read_text(encoding="utf-8"):
        click.echo("note: the images are file:/// paths, seen only on this computer; for the Workshop see "
                   "docs/tts.md", err=True)
    sys.exit(1 if result.refused else 0)
