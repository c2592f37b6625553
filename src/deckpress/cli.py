"""The `deckpress` command. Exit status: 0 success, 1 a mistake in a deck, 2 a usage error."""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import signal
import sys
import warnings
from collections.abc import Callable
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import urlsplit

import click

from . import __version__
from .builders import Builder, registered
from .context import BuildOptions
from .errors import DeckError, Problems, Where
from .options import Bool, Choice, Context, Invalid, ListOf, Option
from .sizes import CARD_SIZES

DECKS_DIR = Path("decks")


def resolve_decks(names: tuple[str, ...]) -> list[Path]:
    """Deck names (`score`) or paths (`decks/score.yaml`); none means every decks/*.yaml."""
    if not names:
        found = sorted(p for p in DECKS_DIR.glob("*.yaml") if not p.name.startswith("."))  # not editors' .#x.yaml
        if not found:
            raise click.UsageError(f"no decks found in {DECKS_DIR}/; name a deck file or run from the project "
                                   "folder")
        return found
    paths = []
    for name in names:
        path = Path(name)
        if path.is_dir():  # `deckpress build .`: the project here means every deck of it
            if path.resolve() not in (Path.cwd(), DECKS_DIR.resolve()):
                known = ", ".join(p.stem for p in sorted(DECKS_DIR.glob("*.yaml"))) or "none"
                fix = (f"run deckpress in that project's folder: cd {name}" if (path / "decks").is_dir() else
                       f"name a deck; decks here: {known}")
                raise click.BadParameter(f"{name!r} is a folder, not a deck; {fix}", param_hint="DECK")
            paths += [p for p in resolve_decks(()) if p not in paths]
            continue
        if path.suffix not in (".yaml", ".yml"):
            path = DECKS_DIR / f"{name}.yaml"
        if not path.is_file():
            known = ", ".join(p.stem for p in sorted(DECKS_DIR.glob("*.yaml"))) or "none"
            raise click.BadParameter(f"no deck {name!r} ({path} does not exist); decks here: {known}",
                                     param_hint="DECK")
        paths.append(path)
    return paths


def _asset_url(url: str | None) -> str | None:
    """The base URL of the TTS images, checked: TTS loads them over http(s), each as the URL + its name."""
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment or \
            any(c.isspace() or not c.isprintable() for c in url):
        raise click.BadParameter(f"{url!r} is not the web address of a folder; write it whole, e.g. "
                                 "https://example.org/score/", param_hint="--asset-url")
    return url


def _report(err: DeckError) -> None:
    for problem in err.problems:
        click.echo(str(problem), err=True)


_status: list[int] = []  # the program's exit status, once `run` ends it


def _end() -> None:
    """The program's last exit function: once `run` has ended the program, the streams flushed, the process
    ends with its status (os._exit), before the interpreter's teardown. atexit runs the function registered
    last first: this one is registered as deckpress.cli is imported, before the builders of the installed
    packages are loaded, so that the exit functions of every module the command imports run before it."""
    if _status:
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):  # a closed pipe (`deckpress ... | head`): what it took is all it gets
                stream.flush()
        os._exit(_status[0])


atexit.register(_end)

try:
    BUILDER_CLASSES = registered()  # deckpress's own builders and those of the installed packages
except DeckError:  # a package's builder that cannot run: the flags of deckpress's own, and a build says why
    BUILDER_CLASSES = registered(installed=False)


class Stopped(Exception):
    """SIGTERM arrived: unwind like Ctrl-C, so the staging folder is removed."""


def _stop(signum, frame) -> None:
    raise Stopped()


@contextmanager
def interruptible(what: str):
    """Ctrl-C and SIGTERM end the command with one line, exit status 130 (143 for SIGTERM), after the
    `finally` blocks below have removed what an unfinished build wrote."""
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"interrupted; {what}", err=True)
        sys.exit(130)
    except Stopped:
        click.echo(f"stopped; {what}", err=True)
        sys.exit(143)
    finally:
        signal.signal(signal.SIGTERM, previous)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckpress")
def main() -> None:
    """Build card games from YAML: faces, a Tabletop Simulator mod and print-and-play PDFs."""
    from .memory import keep_freed_memory

    keep_freed_memory()  # the command's process only, before it forks any: not for whoever imports deckpress
    warnings.showwarning = _library_warning  # and the processes it forks


def _library_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A Python or library warning deckpress did not turn into its own words: one line, never the raw
    two-line warning with a path inside a library."""
    module = category.__module__.split(".")[0]
    if module == "builtins":  # a UserWarning and the like: the module that raised it
        module = Path(filename).stem
    click.echo(f"warning: {module} says: {message} ({category.__name__}); deckpress should have said this in a "
               "line of its own about your deck: please report it", err=True)


def run() -> None:
    """The `deckpress` program (the `deckpress` script, `python -m deckpress`): `main`, then Python's own exit,
    which waits for the threads still running and runs the exit functions (atexit), but without the
    interpreter's teardown: the last exit function, `_end`, ends the process. The teardown collects the
    garbage through every object left and frees every module's objects one by one (12 to 15 ms after a
    build, for nothing: the process's memory goes back to the system whole)."""
    try:
        main(prog_name="deckpress")
        code: object = 0
    except SystemExit as done:
        code = done.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    _status.append(code)
    sys.exit(code)


BUILD_OPTIONS = [
    click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
                 help="Folder to build into; each deck goes to OUT/<deck>/."),
    click.option("--lang", default=None, help="Language of the texts (default: each deck's own)."),
    click.option("--asset-url", default=None, metavar="URL",
                 help="Base URL the TTS images will be uploaded to (default: file:/// paths to the build)."),
    click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors and warnings."),
]


def _builder_flag(builder: type[Builder], key: str, option: Option):
    """The flag of a builder's option (`back_offset`: --back-offset), its value checked by the option; a list
    is written comma-separated."""
    metavar = builder.metavars.get(key, option.type_name.upper())

    def convert(ctx, param, value):
        given = value
        if isinstance(option, ListOf) and isinstance(value, str):
            items = [item.strip() for item in value.split(",")]
            count = len(items)
            if count < option.min_items or (option.max_items is not None and count > option.max_items):
                raise click.BadParameter(f"{value!r} is {count} value(s); write {metavar}, comma-separated")
            value = items
        problems = Problems()
        try:
            checked = option.check(value, Where(param.opts[0]), Context(problems))
        except Invalid as err:
            problems.add(Where(param.opts[0]), str(err))
        if problems.items:
            raise click.BadParameter(f"{given!r}: {problems.items[0].message}")
        return checked

    default = option.default_value()
    if isinstance(option, Bool):
        return click.option(f"--{key.replace('_', '-')}", f"{builder.name}__{key}", is_flag=True, help=option.doc)
    if isinstance(option, Choice):
        return click.option(f"--{key.replace('_', '-')}", f"{builder.name}__{key}", type=click.Choice(option.choices),
                            default=default, show_default=True, help=option.doc)
    shown = ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in default) if isinstance(default, list) \
        else default
    return click.option(f"--{key.replace('_', '-')}", f"{builder.name}__{key}", default=shown, show_default=True,
                        metavar=metavar, callback=convert, help=option.doc)


def build_options(command):
    """The options `build` and `watch` share: deckpress's, then one flag per option of each builder."""
    flags = [_builder_flag(b, key, option) for b in BUILDER_CLASSES for key, option in b.Options.OPTIONS.items()]
    for option in reversed(BUILD_OPTIONS + flags):
        command = option(command)
    return command


def _options(out: Path, lang: str | None, asset_url: str | None, quiet: bool, **flags) -> BuildOptions:
    """The options of a build: deckpress's, and each builder's typed options (flags named `<builder>__<key>`)."""
    given = {b.name: {k.split("__", 1)[1]: v for k, v in flags.items() if k.startswith(f"{b.name}__")}
             for b in BUILDER_CLASSES}
    return BuildOptions(out=out, lang=lang, asset_url=_asset_url(asset_url), quiet=quiet,
                        builders={b.name: b.defaults(**given[b.name]) for b in BUILDER_CLASSES})


class Progress:
    """A build's progress on stderr. On a terminal: one line redrawn in place, with a bar for the steps that
    count (drawing faces); elsewhere: plain lines, every tenth face. Warnings go above the line."""

    BAR = 24

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.shown = False

    def __call__(self, message: str, done: int | None = None, total: int | None = None) -> None:
        if self.quiet:
            return
        if not self.tty:
            if done is None or done == total or done % 10 == 0:
                click.echo(message, err=True)
            return
        if total:
            filled = round(self.BAR * done / total)
            message = f"{message} [{'#' * filled}{'.' * (self.BAR - filled)}] {100 * done // total:3d}%"
        click.echo(f"\r\x1b[K{message}", err=True, nl=False, color=True)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            click.echo("\r\x1b[K", err=True, nl=False, color=True)
            self.shown = False

    def warn(self, message: str) -> None:
        self.clear()
        click.echo(message, err=True)


def _build_one(path: Path, options: BuildOptions) -> bool:
    """Build one deck, reporting its summary or its mistakes; whether it succeeded."""
    from .build import build_deck

    progress = Progress(options.quiet)
    try:
        summary = build_deck(path, options, progress, warn=progress.warn)
    except DeckError as err:
        progress.clear()
        _report(err)
        return False
    finally:
        progress.clear()
    if not options.quiet:
        click.echo(summary)
    return True


def _build_quietly(path: Path, options: BuildOptions) -> tuple[bool, list[str], str | None]:
    """Build one deck with the output lock already held, keeping what it would print: whether it succeeded,
    its warnings and mistakes (for stderr), its summary."""
    from .build import build_deck

    lines: list[str] = []
    try:
        summary = build_deck(path, options, lambda *args: None, warn=lines.append, lock=False)
    except DeckError as err:
        return False, lines + [str(problem) for problem in err.problems], None
    return True, lines, None if options.quiet else summary


def _build_side_by_side(paths: list[Path], options: BuildOptions) -> list[bool]:
    """Build the decks in processes side by side (each deck's own faces are drawn in processes of its
    own too), printing each deck's lines in the decks' order."""
    from .build import output_lock, stamped
    from .processes import TaskFailed, side_by_side

    progress = Progress(options.quiet)
    results = []
    try:
        with output_lock(options.out, "decks", progress):
            progress(f"building {len(paths)} decks", 0, len(paths))
            done = {}  # the decks whose stamps hold, told here without a process of their own
            for path in paths:
                lines: list[str] = []
                summary = stamped(path, options, lines.append)
                if summary is not None:
                    done[path] = (True, lines, None if options.quiet else summary)
            todo = [path for path in paths if path not in done]
            if len(todo) > 1:  # the builders' libraries imported once, not in each deck's and builder's process
                from .builders import preload

                preload()
            built = side_by_side([lambda path=path: _build_quietly(path, options) for path in todo])
            for path in paths:
                ok, lines, summary = done[path] if path in done else next(built)
                for line in lines:
                    progress.warn(line)
                if summary:
                    progress.clear()
                    click.echo(summary)
                results.append(ok)
                progress(f"building {len(paths)} decks", len(results), len(paths))
    except DeckError as err:
        progress.clear()
        _report(err)
        return [False]
    except TaskFailed as err:
        progress.clear()
        click.echo(f"{todo[err.index]}: the build stopped (exit status {err.exitcode}); the previous build "
                   "is as it was", err=True)
        return [False]
    finally:
        progress.clear()
    return results


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@build_options
@click.option("--changed-since", default=None, metavar="REF",
              help="Also a reprint PDF per print profile of the cards whose faces changed since REF: an earlier "
                   "build folder (a copy of build/<deck>/), its manifest.json, or a git revision (docs/print.md).")
def build(decks: tuple[str, ...], changed_since: str | None, **values) -> None:
    """Build DECKs (names like `score`, or paths; default: every decks/*.yaml). Several decks are built
    side by side on several cores."""
    from .processes import available

    options = dataclasses.replace(_options(**values), changed_since=changed_since)
    with interruptible(f"the previous builds in {options.out} are as they were"):
        paths = resolve_decks(decks)
        if len(paths) > 1 and available():
            results = _build_side_by_side(paths, options)
        else:
            results = [_build_one(path, options) for path in paths]
    sys.exit(0 if all(results) else 1)


TTS_OPTIONS = [
    click.option("--tts-port", type=click.IntRange(1, 65535), default=39999, show_default=True,
                 help="Port TTS listens on for editors."),
    click.option("--editor-port", type=click.IntRange(0, 65535), default=39998, show_default=True,
                 help="Port deckpress listens on for TTS's prints and errors (0: any free port)."),
]


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@build_options
@click.option("--tts", is_flag=True, help="After each rebuild, push what changed into the game TTS has loaded.")
@TTS_OPTIONS[0]
@TTS_OPTIONS[1]
def watch(decks: tuple[str, ...], **values) -> None:
    """Build DECKs, then build them again each time a deck, template, image, font, tts/ or print/ file is
    saved, redrawing only what changed. A mistake is reported and watching goes on; Ctrl-C ends it (exit
    status 130). With --tts, each successful build of the one DECK is pushed into the game TTS has loaded
    (see `push`), and the current build as soon as TTS loads the deck's game: TTS may start later."""
    from .watch import watch as watch_files

    tts, tts_port, editor_port = values.pop("tts"), values.pop("tts_port"), values.pop("editor_port")
    options = dataclasses.replace(_options(**values), drawn=True)
    paths = resolve_decks(decks)  # a usage error now; once watching, the same problem is said and watching goes on
    if tts and len(paths) != 1:
        raise click.UsageError("--tts pushes one deck into the game TTS has loaded; name one deck")
    live = _live(options.out, tts_port, editor_port, paths[0].stem) if tts else None

    def build(path: Path) -> bool:
        """Build the deck, and with --tts push it after a successful build (a push that fails says why
        itself: the build still stands)."""
        if live is None:
            return _build_one(path, options)
        with live.busy:  # a push TTS's loading a game sets off waits until the build is in place
            built = _build_one(path, options)
            if built:
                live.push(path.stem)
        return built

    try:
        with interruptible("stopped watching"):
            watch_files(_decks_meanwhile(decks, "watching goes on"), options.out, build,
                        lambda msg: click.echo(msg, err=True))
    finally:
        if live is not None:
            live.stop()


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@build_options
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; another than this machine's loopback lets others on the network in.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the studio in the web browser.")
def studio(decks: tuple[str, ...], host: str, port: int, open_browser: bool, **values) -> None:
    """Show DECKs in the web browser, live: build them as `watch` does, and serve each deck's faces, card data
    and sources, print pages, TTS sheets and playtest, and a table where people and bots play a scripted game
    (docs/studio.md). Ctrl-C ends it."""
    from .build import build_deck
    from .studio import StudioError, command

    options = dataclasses.replace(_options(**values), drawn=True)
    paths = resolve_decks(decks)

    def build(path: Path) -> tuple[list[str], str]:
        """Build the deck as `build` does, printing what it prints; its mistakes' lines and its summary."""
        try:
            summary = build_deck(path, options, lambda *args, **kwargs: None,
                                 warn=lambda line: click.echo(line, err=True))
        except DeckError as err:
            _report(err)
            return [str(problem) for problem in err.problems], ""
        if not options.quiet:
            click.echo(summary)
        return [], summary

    try:
        with interruptible("the studio stopped"):
            command(_decks_meanwhile(decks, "the studio goes on"), paths, options.out, build, host, port,
                    open_browser, lambda message: click.echo(message, err=True))
    except StudioError as err:
        click.echo(str(err), err=True)
        sys.exit(1)


def _decks_meanwhile(names: tuple[str, ...], going_on: str) -> Callable[[], list[Path]]:
    """The decks `names` name, found anew before each build of a command that runs until Ctrl-C: a problem
    (a deck file deleted since) is said, with what goes on, and names none."""
    def found() -> list[Path]:
        try:
            return resolve_decks(names)
        except click.UsageError as err:
            click.echo(f"{err.format_message()}; {going_on}", err=True)
            return []
    return found


def _live(out: Path, tts_port: int, editor_port: int, deck: str | None = None):
    """The connection to TTS of `push` and (with `deck`) `watch --tts`: builders/tts/live.py."""
    from .builders.tts.live import Live

    return Live(out, lambda line: click.echo(line, err=True), tts_port, editor_port, deck)


@main.command()
@click.argument("deck", metavar="DECK")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="Folder the deck was built into.")
@click.option("--listen", type=click.FloatRange(0, 600), default=3.0, show_default=True,
              help="Seconds to show what TTS prints and reports after the push.")
@TTS_OPTIONS[0]
@TTS_OPTIONS[1]
def push(deck: str, out: Path, listen: float, tts_port: int, editor_port: int) -> None:
    """Send what changed in DECK's build to the game TTS has loaded: the Global script and UI by save & play
    (TTS reloads the game), changed objects replaced where they lie. Needs a game loaded in TTS."""
    import time

    name = Path(deck).stem
    if not (out / name / "tts" / f"{name}.json").is_file():
        raise click.UsageError(f"{out / name / 'tts' / (name + '.json')} does not exist; run `deckpress build {name}` "
                               "first")
    live = _live(out, tts_port, editor_port)
    try:
        ok = live.push(name)
        if ok and live.listener is not None:
            time.sleep(listen)
    finally:
        live.stop()
    sys.exit(0 if ok else 1)


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--lang", default=None, help="Language to check the texts in (default: each deck's own).")
@click.option("--strict", is_flag=True, help="Take warnings for errors: exit status 1 when any is said (for CI).")
@click.option("--colour-blind", is_flag=True,
              help="Also warn of cards that differ in a component's `colour_blind.distinct_by` field but look alike "
                   "to a protanope, deuteranope or tritanope (docs/print.md).")
@click.option("--links", is_flag=True,
              help="Also load every URL the saves of each deck's last build name (in OUT): one line per link that "
                   "fails (docs/tts.md).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="Folder the decks were built into, for --links.")
@click.option("--timeout", type=click.FloatRange(0, 600, min_open=True), default=10.0, show_default=True,
              metavar="SECONDS", help="With --links: how long each request of a link may take.")
def check(decks: tuple[str, ...], lang: str | None, strict: bool, colour_blind: bool, links: bool, out: Path,
          timeout: float) -> None:
    """Validate DECKs without writing anything (every face is drawn in memory, so text that does not fit
    is reported too); with --links, load the links of their last builds."""
    from .deck import load_deck
    from .faces import FaceCheck

    try:
        builders = registered()  # a package's builder that cannot run fails every build: check says so first
    except DeckError as err:
        _report(err)
        sys.exit(1)
    failed = False
    for path in resolve_decks(decks):
        try:
            deck = load_deck(path, lang)
            for warning in deck.warnings:
                click.echo(warning, err=True)
            faces = FaceCheck(deck)  # every face drawn once, for the deck's checks and the builders'
            for builder in builders:
                builder().check(deck, faces)
            if colour_blind:
                from . import colour_blind as simulation

                simulation.check(deck, faces)
            drawn = faces.run()
        except DeckError as err:
            _report(err)
            failed = True
            continue
        for warning in drawn:
            click.echo(warning, err=True)
        said = [*deck.warnings, *drawn]
        if strict and said:
            click.echo(f"{path}: {len(said)} warning{'s' if len(said) > 1 else ''}, errors with --strict", err=True)
            failed = True
            continue
        cards = sum(card.count for c in deck.model.components for card in c.cards)
        click.echo(f"{path}: ok ({len(deck.model.components)} components, {cards} cards and tokens)")
        if links and not _links_load(out, path.stem, timeout):
            failed = True
    sys.exit(1 if failed else 0)


def _links_load(out: Path, name: str, timeout: float) -> bool:
    """Load the links of the deck's last build in `out`, saying each that fails; whether all load."""
    from .builders.tts.links import check_build

    try:
        failures, count = check_build(out / name, name, timeout)
    except DeckError as err:
        _report(err)
        return False
    for line in failures:
        click.echo(line, err=True)
    if not failures:
        click.echo(f"{out / name / 'tts'}: {count} link{'s' if count != 1 else ''} load")
    return not failures


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
def pull(decks: tuple[str, ...]) -> None:
    """Fetch every published sheet DECKs read (`cards_from: {sheet: URL}`) anew into its copy in the project,
    data/<deck>/<component>.csv, and say which cards were added, removed or changed. Only pull uses the
    network: build and check read the copies."""
    from .sheets import pull as pull_sheets

    failed = False
    with interruptible("every copy is whole, the old one or the new"):
        for path in resolve_decks(decks):
            try:
                pull_sheets(path, click.echo)
            except DeckError as err:
                _report(err)
                failed = True
    sys.exit(1 if failed else 0)


def _condition(ctx, param, value: str | None) -> str | None:
    """`preview --simulate`'s colour blindness, one colour_blind.py simulates."""
    if value is None:
        return None
    from .colour_blind import CONDITIONS
    from .options import close_matches

    if value not in CONDITIONS:
        close = close_matches(value, list(CONDITIONS))
        raise click.BadParameter(f"{value!r} is no colour blindness deckpress simulates; write " +
                                 (close[0] if close else " or ".join(CONDITIONS)))
    return value


@main.command()
@click.argument("deck", metavar="DECK")
@click.option("--card", "card_id", default=None, metavar="ID", help="Only this card, at full size.")
@click.option("--out", "target", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="PNG to write (default: build/<deck>-preview.png, and -hand.png beside it).")
@click.option("--lang", default=None, help="Language of the texts (default: the deck's own).")
@click.option("--build-dir", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="Where the deck is built: faces still up to date there are not drawn again.")
@click.option("--profile", "profile_name", default=None, metavar="NAME",
              help="Show the faces as this print profile prints them: in CMYK (one with pdfx: true, e.g. "
                   "drivethrucards, a soft proof) or lightened for a low-ink draft (e.g. draft-a4).")
@click.option("--simulate", "condition", default=None, metavar="CONDITION", callback=_condition,
              help="Show the faces as a player with protanopia, deuteranopia or tritanopia sees them (Machado et "
                   "al. 2009); the default file names end in -CONDITION.")
def preview(deck: str, card_id: str | None, target: Path | None, lang: str | None, build_dir: Path,
            profile_name: str | None, condition: str | None) -> None:
    """A contact sheet of every face of DECK and a hand fan (or one card), as PNG, without building."""
    from .deck import load_deck
    from .preview import PreviewError, preview as write_preview, soft_proof

    if target is not None and target.suffix.lower() != ".png":
        raise click.BadParameter(f"{str(target)!r} is not a .png file name; a preview is a PNG, e.g. --out "
                                 f"{target.with_suffix('.png')}", param_hint="--out")
    try:
        loaded = load_deck(resolve_decks((deck,))[0], lang)
        paths = write_preview(loaded, build_dir, card_id, target, soft_proof(loaded, profile_name), condition)
    except DeckError as err:
        _report(err)
        sys.exit(1)
    except (PreviewError, OSError) as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    for path in paths:
        click.echo(path)


@main.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--name", default=None, help="The game's name (default: from PATH); the deck file is named after it.")
@click.option("--card-size", type=click.Choice(list(CARD_SIZES)), default="poker", show_default=True,
              help="Size of the cards.")
@click.option("--scripted", is_flag=True,
              help="Also a scripted table of its own (tts/<deck>/: rules engine, table script, typed options).")
def new(path: Path, name: str | None, card_size: str, scripted: bool) -> None:
    """Start a game of your own in PATH (a new or empty folder): a deck, two templates and a README
    (with --scripted, the game's rules as a scripted table too). Then `cd PATH && deckpress build`."""
    from .scaffold import ScaffoldError, new_project
    from .source import control_character

    name = name or path.absolute().name.replace("-", " ").replace("_", " ").title()
    problem = "a line break" if "\n" in name else control_character(name)
    if problem:  # it would end the deck's first-line comment and start YAML of its own
        raise click.BadParameter(f"the game's name {name!r} holds {problem}; write it on one line, of letters, "
                                 "digits, spaces and punctuation", param_hint="--name")
    try:
        written = new_project(path, name, card_size, scripted)
    except ScaffoldError as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    except OSError as err:
        click.echo(f"{path}: cannot create the project ({err.strerror or err}); name a folder you can write in, "
                   "e.g. deckpress new my-game", err=True)
        sys.exit(1)
    for file in written:
        click.echo(f"created {file}")
    click.echo(f"next: cd {path} && deckpress build")


@main.command()
@click.option("--markdown", is_flag=True, help="Print the reference page (docs/deck-format.md) instead.")
@click.option("--deck", "deck_name", default=None, metavar="DECK",
              help="A schema for this deck: its cards held to the fields its components declare.")
@click.option("--template", "for_template", is_flag=True, help="The schema of template files instead.")
@click.option("--profile", "for_profile", is_flag=True, help="The schema of print profile files instead.")
def schema(markdown: bool, deck_name: str | None, for_template: bool, for_profile: bool) -> None:
    """Print the deck format as JSON Schema, for YAML editors."""
    from . import reference
    from .deck import load_deck
    from .builders.pdf.profiles import PrintProfile
    from .schema import Template, json_schema, record_schema

    if markdown:
        click.echo(reference.markdown(), nl=False)
        return
    if for_template:
        out = record_schema(Template, "deckpress template")
    elif for_profile:
        out = record_schema(PrintProfile, "deckpress print profile")
    else:
        try:  # the records of the scripted games a deck can name come in: a broken records file is a line
            out = json_schema(load_deck(resolve_decks((deck_name,))[0]).model if deck_name is not None else None)
        except DeckError as err:
            _report(err)
            sys.exit(1)
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))


@main.command()
@click.argument("deck", metavar="DECK")
@click.option("--tts-dir", type=click.Path(path_type=Path), default=None,
              help="Tabletop Simulator data folder (default: TTS's own for this operating system).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="Folder the deck was built into.")
@click.option("--force", is_flag=True, help="Also overwrite files deckpress did not write (or that were changed).")
@click.option("--unchecked", is_flag=True,
              help="Install without loading the save's links first (offline); check them later with check --links.")
def install(deck: str, tts_dir: Path | None, out: Path, force: bool, unchecked: bool) -> None:
    """Copy DECK's built TTS save, thumbnail and saved objects into Tabletop Simulator's folder, once every
    link the save names loads."""
    from .builders.tts.install import InstallError, default_tts_dir, install as install_files
    from .builders.tts.links import TIMEOUT

    name = Path(deck).stem
    built = out / name / "tts"
    if not (built / f"{name}.json").is_file():
        raise click.UsageError(f"{built / (name + '.json')} does not exist; run `deckpress build {name}` first")
    if not unchecked and not _links_load(out, name, TIMEOUT):
        click.echo(f"{built}: installed nothing, the links above do not load; upload the files, or install with "
                   "--unchecked to see the game without them", err=True)
        sys.exit(1)
    target = tts_dir or default_tts_dir()
    try:
        result = install_files(built, name, target, force=force)
    except InstallError as err:
        click.echo(f"{target}: {err}", err=True)
        sys.exit(1)
    except OSError as err:
        click.echo(f"{err.filename or target}: cannot install: {err.strerror or err}; check that the TTS folder "
                   "is writable, or name another with --tts-dir", err=True)
        sys.exit(1)
    for path in result.written:
        click.echo(f"installed {path}")
    for path in result.unchanged:
        click.echo(f"up to date {path}")
    for path in result.refused:
        click.echo(f"{path}: not written by deckpress, or changed since; kept it and installed nothing (use --force "
                   "to overwrite it)", err=True)
    if "file:///" in (built / f"{name}.json").read_text(encoding="utf-8"):
        click.echo("note: the images are file:/// paths, seen only on this computer; for the Workshop see "
                   "docs/tts.md", err=True)
    sys.exit(1 if result.refused else 0)


@main.command("test")
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="Each deck is built into OUT/<deck>/, as `deckpress build --out OUT` builds it, and tested there.")
def table_test(decks: tuple[str, ...], out: Path) -> None:
    """Play the table scenarios of tests/*.scenarios.yaml (of DECKs only, when named) on a strict fake of TTS,
    at TTS's own timing and 20 frames late: one line per scenario (docs/scripting.md, Testing)."""
    from .tabletest.run import command

    options = _options(out=out, lang=None, asset_url=None, quiet=True)
    try:
        with interruptible(f"every build in {out} is whole, finished or as it was"):
            paths = resolve_decks(decks) if decks else None
            status = command(paths, options, click.echo, lambda message: click.echo(message, err=True))
    except DeckError as err:
        _report(err)
        sys.exit(1)
    sys.exit(status)


@main.command()
@click.argument("deck", metavar="DECK")
@click.option("--games", type=int, default=1000, show_default=True, help="Whole games to play (1 to 1,000,000).")
@click.option("--players", type=int, default=None,
              help="Players at the table (default: 4, or the nearest count the game or mode allows).")
@click.option("--mode", default=None, help="The deck's mode to play (default: the game's own default).")
@click.option("--seed", type=int, default=1, show_default=True, help="One seed, one report, on any number of cores.")
@click.option("--bots", default="random", show_default=True, metavar="LIST",
              help="random, greedy or search: one for every seat, or a comma-separated list, one per seat.")
@click.option("--budget", type=int, default=100, show_default=True,
              help="Playouts per decision of a search bot.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Also write the report as JSON (docs/playtest.md).")
@click.option("--against", default=None, metavar="OTHER_DECK",
              help="Play the same seeds on OTHER_DECK and show each figure's difference.")
@click.option("--max-moves", type=int, default=20_000, show_default=True,
              help="Moves after which a game still going is counted as unfinished, left out of the figures.")
@click.option("--rotate", is_flag=True,
              help="Rotate the turn order game by game (each seat keeping its bot): every seating played equally.")
@click.option("--lua", "runtime", default="jit", show_default=True, metavar="jit|5.2",
              help="LuaJIT (fast), or Lua 5.2 itself (TTS's dialect).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), show_default=True,
              help="The page goes to OUT/<deck>/playtest/.")
def playtest(deck: str, against: str | None, json_file: Path | None, out: Path, **options) -> None:
    """Play whole games of DECK's scripted game with bots, by the table's own Lua rules, and report the win
    rates by seat and by card (docs/playtest.md)."""
    from .playtest import PlaytestError, command

    progress = Progress(quiet=False) if sys.stderr.isatty() else None
    show = (lambda done, total: progress(f"playing {done:,}/{total:,} games", done, total)) if progress else None
    try:
        paths = resolve_decks((deck,) if against is None else (deck, against))
        with interruptible("nothing written"):
            status = command(paths[0], paths[1] if against else None, options, json_file, out, click.echo, show)
    except PlaytestError as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    except DeckError as err:
        _report(err)
        sys.exit(1)
    finally:
        if progress is not None:
            progress.clear()
    sys.exit(status)
