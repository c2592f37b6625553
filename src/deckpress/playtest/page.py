"""The report as a page, build/<deck>/playtest/<name>.html: the win rates by seat, by place and by card with
their intervals as SVG charts (and the other deck's, and the differences), listed in the build's manifest.json
so that a build keeps it as deckpress's own file (build.py's PLAYTEST).
"""

from __future__ import annotations

import hashlib
import html
import json
import math
from pathlib import Path

from .. import __version__
from .figures import natural
from .games import PlaytestError, Run
from .terminal import first_player, ordinal, pct, title, unfinished

ROW, LABEL, PLOT, PAD = 22, 220, 520, 12
COLOURS = ("#2b6cb0", "#c05621")  # DECK, OTHER_DECK


def page_name(r: dict) -> str:
    """The page's file name: the run's mode, players, bots and seed (and the other deck)."""
    bots = "+".join(dict.fromkeys(r["bots"])) if len(set(r["bots"])) == 1 else "+".join(r["bots"])
    name = f"{r['mode'] or 'default'}-{r['players']}p-{bots}-seed{r['seed']}" + ("-rotated" if r["rotate"] else "")
    if "against" in r:
        name += f"-vs-{r['against']['report']['deck']}"
    return name + ".html"


def _axis(rows: list[tuple[str, list[tuple[float | None, list[float] | None]]]], fair: float | None) -> tuple[float, float, float]:
    """The chart's span, from and to (rates), and its tick step: the intervals and the fair line, with a margin."""
    values = [v for _, marks in rows for rate, ci in marks if rate is not None for v in ci]
    values += [fair] if fair is not None else []
    start, end = min(values) - 0.01, max(values) + 0.01
    step = next(s for s in (0.01, 0.02, 0.05, 0.1, 0.2) if (end - start) / s <= 12)
    low = max(0.0 if min(values) >= 0 else -1.0, math.floor(start / step) * step)
    high = min(1.0, math.ceil(end / step) * step)
    return low, high, step


def _chart(rows: list[tuple[str, list[tuple[float | None, list[float] | None]]]], fair: float | None,
           caption: str, line: str = "a fair share") -> str:
    """A horizontal interval chart: per row its label and, per deck, a dot at the rate and a bar over the 95 %
    interval; a dashed line at `fair` (the rate of a fair game). The axis spans the figures, not 0 to 100 %."""
    height = PAD * 2 + ROW * len(rows) + 20
    width = LABEL + PLOT + PAD * 4
    low, high, step = _axis(rows, fair)
    x = lambda v: LABEL + PAD + PLOT * (min(high, max(low, v)) - low) / (high - low)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
           f'aria-label="{html.escape(caption)}" font-family="sans-serif" font-size="12">']
    for tick in range(math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9) + 1):
        v = tick * step
        out.append(f'<line x1="{x(v):.1f}" y1="{PAD}" x2="{x(v):.1f}" y2="{height - 20}" stroke="#e2e8f0"/>')
        out.append(f'<text x="{x(v):.1f}" y="{height - 6}" text-anchor="middle" fill="#4a5568">{100 * v:.0f}%</text>')
    if fair is not None:
        out.append(f'<line x1="{x(fair):.1f}" y1="{PAD}" x2="{x(fair):.1f}" y2="{height - 20}" stroke="#718096" '
                   f'stroke-dasharray="4 3"><title>{line}</title></line>')
    for i, (label, marks) in enumerate(rows):
        y = PAD + ROW * i + ROW / 2
        out.append(f'<text x="{LABEL}" y="{y + 4:.1f}" text-anchor="end">{html.escape(label)}</text>')
        for k, (rate, ci) in enumerate(marks):
            if rate is None:
                continue
            dy = (k - (len(marks) - 1) / 2) * 6
            colour = COLOURS[k % len(COLOURS)]
            tip = f"{label}: {100 * rate:.1f}% (95% interval {100 * ci[0]:.1f}-{100 * ci[1]:.1f}%)"
            out.append(f'<g><title>{html.escape(tip)}</title>'
                       f'<line x1="{x(ci[0]):.1f}" y1="{y + dy:.1f}" x2="{x(ci[1]):.1f}" y2="{y + dy:.1f}" '
                       f'stroke="{colour}" stroke-width="3" stroke-opacity="0.5"/>'
                       f'<circle cx="{x(rate):.1f}" cy="{y + dy:.1f}" r="4" fill="{colour}"/></g>')
    out.append("</svg>")
    return "".join(out)


def html_page(r: dict) -> str:
    """The report as a page: the seats' and the cards' win rates with their intervals (and the other deck's)."""
    other = r.get("against", {}).get("report")
    reports = [r] + ([other] if other else [])
    fair = 1 / r["players"]
    seat_rows = [(f"{s['seat']} {s['id']} ({s['bot']})", [(rep["seats"][i]["win_rate"], rep["seats"][i]["ci95"])
                                                        for rep in reports])
                 for i, s in enumerate(r["seats"])]
    names = {c["id"]: c["name"] for rep in reports for c in rep["cards"]}
    ids = sorted(names, key=lambda i: (natural(names[i]), natural(i)))
    by = [{c["id"]: c for c in rep["cards"]} for rep in reports]
    card_rows = [(f"{names[i]} ({sum(b[i]['played'] for b in by if i in b):,})",
                  [(b[i]["win_rate_when_played"], b[i]["ci95"]) if i in b else (None, None) for b in by])
                 for i in ids]
    card_rows.sort(key=lambda row: -max(m[0] for m in row[1] if m[0] is not None))
    legend = differences = ""
    if other:
        diff = r["against"]["differences"]
        rows = [(f"seat {d['seat']}", [(d["difference"], d["ci95"])]) for d in diff["seats"]]
        rows += [(d["name"], [(d["difference"], d["ci95"])]) for d in diff["cards"] if d["difference"] is not None]
        differences = (f"<h2>Differences: {html.escape(other['deck'])} minus {html.escape(r['deck'])}</h2>"
                       "<p class=\"note\">Each win rate's difference with its 95% interval (Newcombe): an interval "
                       "clear of the dashed line at 0 is a difference beyond chance.</p>"
                       + _chart(rows, 0.0, "differences of the win rates", "no difference"))
        legend = (f'<p><span style="color:{COLOURS[0]}">&#9679; {html.escape(r["deck"])}</span> &nbsp; '
                  f'<span style="color:{COLOURS[1]}">&#9679; {html.escape(other["deck"])}</span> '
                  "(the same seeds)</p>")
    engine = "".join(f"<li>{html.escape(name)}: {pct(flag['rate'])} of {flag['events']:,} events</li>"
                     for name, flag in r["engine"].items())
    length = r["length"]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title(r))}</title>
<style>body{{font-family:sans-serif;margin:2em;color:#1a202c}} h2{{margin-top:1.5em}} p.note{{color:#4a5568}}</style>
</head><body>
<h1>{html.escape(title(r))}</h1>
{"".join(f'<p class="warning">{html.escape(line)}</p>' for line in (unfinished(r), other and unfinished(other)) if line)}
{legend}
<p class="note">A dot is a win rate, its bar the 95% Wilson interval: the rate lies there in 95 runs of 100 of
this many games. Two bars that do not overlap differ for sure; the dashed line is a fair share (1 in
{r['players']}). A tie gives each of its k winners 1/k of a win. What each figure means: docs/playtest.md.</p>
<h2>Win rate by seat</h2>
{_chart(seat_rows, fair, "win rate by seat")}
<h2>Win rate by place in the turn order</h2>
<p>{html.escape(first_player(r))}</p>
{_chart([(ordinal(p["place"]), [(p["win_rate"], p["ci95"])]) for p in r["places"]], fair,
        "win rate by place in the turn order")}
<h2>Win rate when played, by card (pairs of game and player that played it)</h2>
{_chart(card_rows, fair, "win rate when played, by card") if card_rows else "<p>No card was played by id.</p>"}
{differences}
<h2>Length</h2>
<p>Mean {length['mean']:g} moves; 10% of the games end by {length['p10']:g} moves, 90% by {length['p90']:g}.</p>
{f"<h2>The engine's own figures</h2><ul>{engine}</ul>" if engine else ""}
</body></html>
"""


def write_page(out: Path, run: Run, document: dict) -> Path:
    """Write the page into out/<deck>/playtest/ and list it in the build's manifest.json (which it starts when
    the deck is not built yet), so that a build counts it as deckpress's own file."""
    folder = out / run.deck
    manifest_path = folder / "manifest.json"
    manifest: dict = {}
    if manifest_path.is_file():
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except ValueError:
            manifest = {}
    elif folder.exists():
        raise PlaytestError(f"{folder}: not a folder deckpress built; move it away or pick another --out")
    if manifest and (manifest.get("deck") != run.deck or not isinstance(manifest.get("artifacts"), dict)):
        raise PlaytestError(f"{folder}: its manifest.json is not deckpress's; move the folder away or pick another "
                            "--out")
    manifest = manifest or {"deckpress": __version__, "deck": run.deck, "artifacts": {}}
    relative = f"playtest/{page_name(document)}"
    page = folder / relative
    page.parent.mkdir(parents=True, exist_ok=True)
    body = html_page(document).encode("utf-8")
    page.write_bytes(body)
    manifest["artifacts"][relative] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body)}
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return page
