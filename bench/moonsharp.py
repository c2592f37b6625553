"""Time each table button of the four games inside MoonSharp 2.0.0.0, the Lua that TTS embeds.

    python bench/moonsharp.py --moonsharp ~/src/moonsharp      # a clone (or bare mirror) of moonsharp-devs/moonsharp
    python bench/moonsharp.py                                  # later runs: the build is cached
    python bench/moonsharp.py --games scout --lupa             # the same driver under lupa.lua52, to compare

Needs mono and mcs (Debian: `apt-get install mono-devel`) and, the first time, MoonSharp's source: the
interpreter is compiled from tag v2.0.0.0 with mcs into ~/.cache/deckpress-bench/moonsharp-2.0.0.0/, with
bench/moonsharp/Runner.cs, a host that runs Lua files in order in one Script and gives them bench_clock().

Each game's deck is built, then its save's Global script runs on the strict fake of TTS
(src/deckpress/data/tabletest/fake_tts.lua, loaded as deckpress.tabletest.fake loads it) with
bench/moonsharp/drive.lua and the game's scenario (bench/moonsharp/<game>.lua): whole games through the
buttons on the largest table. Each click is timed (the handler: the frame the player clicked in), then
each frame after it until the table settles (Wait and the callbacks), and the engine's pure functions the
buttons call. The time inside the fake's API (its Lua stands in for TTS's own C# work) is shown apart. Times are the thread's CPU time
(Linux), so other processes on the machine add little; MoonSharp runs the files once silently first, to
warm mono's JIT up as a running TTS is. One frame is 16 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deckpress.tabletest.fake import FAKE, REMOVED  # the fake of TTS, and what TTS's sandbox lacks

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "moonsharp"
GAMES = ("scoop", "skorch", "scout", "score")
TAG, COMMIT = "v2.0.0.0", "3154416e535ab96c0d52bf12e3e472985a1532f4"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "deckpress-bench" / "moonsharp-2.0.0.0"
FRAME_MS = 16.0


def fail(message: str) -> None:
    sys.exit(f"bench/moonsharp.py: {message}")


def build_moonsharp(source: Path | None) -> Path:
    """The runner, compiled against MoonSharp.Interpreter.dll from tag v2.0.0.0 (cached)."""
    runner = CACHE / "runner.exe"
    if runner.exists() and runner.stat().st_mtime >= (HERE / "Runner.cs").stat().st_mtime:
        return runner
    missing = [tool for tool in ("mono", "mcs") if shutil.which(tool) is None]
    if missing:
        fail(f"needs {' and '.join(missing)}: install Debian's mono-devel (`sudo apt-get install mono-devel`)")
    dll = CACHE / "MoonSharp.Interpreter.dll"
    if not dll.exists():
        if source is None:
            fail("needs MoonSharp's source the first time: `git clone https://github.com/moonsharp-devs/moonsharp` "
                 "and pass its folder (or a bare mirror's git dir) as --moonsharp")
        git = ["git", "--git-dir", str(source / ".git" if (source / ".git").exists() else source)]
        found = subprocess.run([*git, "rev-parse", f"{TAG}^{{commit}}"], capture_output=True, text=True)
        if found.returncode != 0 or found.stdout.strip() != COMMIT:
            fail(f"{source} has no tag {TAG} at {COMMIT[:12]}: is it a clone of moonsharp-devs/moonsharp?")
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run([*git, "archive", f"{COMMIT}:src/MoonSharp.Interpreter"], capture_output=True)
            if archive.returncode != 0:
                fail(archive.stderr.decode(errors="replace"))
            subprocess.run(["tar", "x", "-C", tmp], input=archive.stdout, check=True)
            project = Path(tmp, "MoonSharp.Interpreter.net35-client.csproj").read_text(encoding="utf-8-sig")
            files = [name.replace("\\", "/") for name in re.findall(r'<Compile Include="([^"]+)"', project)]
            started = time.perf_counter()
            subprocess.run(["mcs", "-target:library", "-optimize+", "-define:TRACE", "-nowarn:1635,3021",
                            "-r:System.dll", "-r:System.Core.dll", f"-out:{dll}", *files], cwd=tmp, check=True,
                           stdout=subprocess.DEVNULL)
            print(f"MoonSharp {TAG} compiled in {time.perf_counter() - started:.1f} s: {dll}", file=sys.stderr)
    subprocess.run(["mcs", "-optimize+", f"-r:{dll}", f"-out:{runner}", str(HERE / "Runner.cs")], check=True)
    return runner


def lua_string(text: str) -> str:
    """`text` as a Lua string literal (UTF-8 bytes as decimal escapes where JSON would write \\u)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03d}")
    return '"' + "".join(out) + '"'


def lua_value(value) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"[{lua_string(k)}]={lua_value(v)}" for k, v in value.items() if v is not None) + "}"
    if isinstance(value, (list, tuple)):
        return "{" + ",".join(lua_value(v) for v in value) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return lua_string(value)
    return repr(value)


def built_save(game: str, out: Path) -> dict:
    result = subprocess.run([sys.executable, "-m", "deckpress", "build", game, "--out", str(out), "--quiet"],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"`deckpress build {game}` failed (is deckpress installed in this Python?):\n{result.stderr}")
    return json.loads((out / game / "tts" / f"{game}.json").read_text(encoding="utf-8"))


def chunks(game: str, save: dict, work: Path) -> list[Path]:
    """The Lua files, in order: the fake, the table's objects, the Global script, the driver, the scenario."""
    table = work / f"{game}-table.lua"
    table.write_text("".join(f"{name} = nil\n" for name in REMOVED)
                     + "for _, name in ipairs({'execute', 'exit', 'getenv', 'remove', 'rename', 'tmpname'}) do"
                       " os[name] = nil end\n"
                     + f"Fake.load({lua_value(save['ObjectStates'])})\n", encoding="utf-8")
    script = work / f"{game}-global.lua"
    script.write_text(save["LuaScript"], encoding="utf-8")
    return [FAKE, HERE / "drive.lua", table, script, HERE / f"{game}.lua"]


def run_moonsharp(runner: Path, files: list[Path]) -> str:
    result = subprocess.run(["mono", str(runner), *map(str, files)], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"MoonSharp stopped:\n{result.stderr}{result.stdout[-2000:]}")
    return result.stdout


def run_lupa(files: list[Path]) -> str:
    import lupa.lua52 as lua52

    lua = lua52.LuaRuntime(unpack_returned_tuples=True)
    lines: list[str] = []
    lua.globals().bench_clock = lambda: time.thread_time() * 1000.0
    lua.globals().print = lambda *args: lines.append("\t".join(map(str, args)))
    try:
        for path in files:
            lua.execute(path.read_text(encoding="utf-8"))
    except lua52.LuaError as error:
        fail(f"Lua 5.2 stopped: {error}\n" + "\n".join(line for line in lines[-20:] if not line.startswith("t\t")))
    return "\n".join(lines)


def samples(game: str, output: str, quiet: bool) -> list[tuple[str, tuple[float, ...]]]:
    """The driver's `t` lines, in order: (what, (click, its script part, worst frame, its script part)) in ms;
    its other lines go to stderr."""
    out = []
    for line in output.splitlines():
        if line.startswith("t\t"):
            _, what, *times = line.split("\t")
            out.append((what, tuple(map(float, times))))
        elif line.strip() and not quiet:
            print(f"  {game}: {line}", file=sys.stderr)
    return out


def summary(runs: list[list[tuple[str, tuple[float, ...]]]]) -> list[tuple]:
    """Per button or function, in order of first use: (what, calls, the script's median and worst click, its
    worst frame, the worst click with the fake's part). Each time is the least over the runs: they play the
    same games, and other processes only add time."""
    if any([what for what, _ in run] != [what for what, _ in runs[0]] for run in runs):
        fail("the runs played different games: is the scenario deterministic?")
    rows: dict[str, list[list[float]]] = {}
    for calls in zip(*runs):
        rows.setdefault(calls[0][0], []).append([min(times) for times in zip(*(t for _, t in calls))])
    return [(what, len(times), statistics.median(t[1] for t in times), max(t[1] for t in times),
             max(t[3] for t in times), max(t[0] for t in times)) for what, times in rows.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moonsharp", type=Path, help="a clone or git dir of moonsharp-devs/moonsharp (first run)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated, of " + ", ".join(GAMES))
    parser.add_argument("--lupa", action="store_true", help="run the same driver under lupa.lua52 instead")
    parser.add_argument("--runs", type=int, default=3, help="runs of each game; each call's least time counts")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        fail(f"unknown game {unknown[0]}: choose among {', '.join(GAMES)}")
    runner = None if args.lupa else build_moonsharp(args.moonsharp)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for game in games:
            files = chunks(game, built_save(game, work / "build"), work)
            runs = [samples(game, run_lupa(files) if runner is None else run_moonsharp(runner, files), run > 0)
                    for run in range(max(1, args.runs))]
            rows += [(game, *row) for row in summary(runs)]
    engine = "lupa.lua52" if runner is None else f"MoonSharp {TAG} on {mono_version()}"
    print(f"{engine}, ms. The script's work: the click's median and worst, the worst frame after it (one frame:"
          f" {FRAME_MS:g} ms; * marks more); then the worst click with the fake's own work")
    print(f"{'game':7} {'button or function':36} {'calls':>5} {'median':>7} {'click':>7} {'frame':>7}  {'+fake':>7}")
    for game, what, calls, median, click, frame, whole in rows:
        mark = "*" if max(click, frame) > FRAME_MS else " "
        print(f"{game:7} {what:36} {calls:5d} {median:7.2f} {click:7.2f} {frame:7.2f} {mark}{whole:7.2f}")


def mono_version() -> str:
    first = subprocess.run(["mono", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    found = re.search(r"version (\S+)", first)
    return f"mono {found.group(1)}" if found else "mono"


if __name__ == "__main__":
    main()
