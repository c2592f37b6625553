"""Print-and-play PDFs: build/<deck>/print/<deck>-<profile>.pdf for every print profile the deck
picks (print/a4.yaml and print/letter.yaml unless it says otherwise), and, for each duplex profile,
print/calibration-<profile>.pdf to measure the printer's back-side offset.

A PDF holds, per component: pages of fronts at true size, each followed by its page of backs laid
out for the duplex mode (duplex profiles) or with the backs on the same page (gutterfold); then the
rules reminder pages. Details and every profile key: docs/print.md.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import mm

from ..context import BuildContext
from ..deck import LoadedDeck
from ..errors import DeckError
from ..pdf.canvas import SANS, Images, new_canvas, plain_streams
from ..pdf.labels import calibration_text, labels
from ..pdf.layout import Rect, Sheet, duplex_sheet, gutterfold_sheet
from ..pdf.profiles import Profile, deck_profiles
from ..pdf.rules import draw_rules, has_rules
from ..pdf.sheets import (Item, Style, calibration, component_shape, cut_lines, draw_face, labels as margin_labels,
                          outlines, set_boxes, used_extent)
from ..schema import Component


def build(ctx: BuildContext) -> None:
    deck = ctx.deck
    profiles = deck_profiles(deck)
    duplex = ctx.options.extra.get("duplex") or "long-edge"
    cli_offset = tuple(ctx.options.extra.get("back_offset") or (0.0, 0.0))
    images = Images(ctx.out)
    with plain_streams():
        for profile in profiles:
            offset = (cli_offset[0] + profile.spec.back_offset[0], cli_offset[1] + profile.spec.back_offset[1])
            style = Style(bleed_face=deck.model.bleed, cut_lines=profile.spec.cut_lines,
                          cut_width=profile.spec.cut_line_width, cut_color=profile.spec.cut_line_color,
                          duplex=duplex, offset=offset)
            ctx.progress(f"print {profile.name}")
            write_pdf(ctx, profile, style, images)
            if profile.duplex:
                write_calibration(ctx, profile, style)


def check(deck: LoadedDeck) -> None:
    """The deck's print profiles load and validate, and every component fits on their pages (a DeckError
    otherwise)."""
    for profile in deck_profiles(deck):
        for component in deck.model.components:
            sheet_for(profile, component)


def component_items(ctx: BuildContext, component: Component) -> list[Item]:
    """Every copy of every card of the component, in deck order; a back of None prints nothing,
    except for tokens, whose front shows on both sides."""
    out = []
    for card in component.cards:
        front = ctx.faces.front(component, card).path
        back_face = ctx.faces.back(component, card)
        back = back_face.path if back_face else (front if component.type == "tokens" else None)
        out.extend([Item(front, back)] * card.count)
    return out


def sheet_for(profile: Profile, component: Component) -> Sheet:
    """The layout of the component's pages: in the profile's orientation, or turned when nothing fits
    that way (e.g. tarot cards on a landscape gutterfold page)."""
    w, h = component.size
    spec = profile.spec
    gap = spec.token_gap if component.type == "tokens" else spec.gap
    for page in (profile.page, profile.page[::-1]):
        if profile.duplex:
            sheet = duplex_sheet(page, spec.margin, w, h, gap, profile.bleed)
        else:
            sheet = gutterfold_sheet(page, spec.margin, w, h, gap, profile.bleed, spec.gutter)
        if sheet is not None:
            return sheet
    where = component.source.at("size") if "size" in component.source else component.where
    raise DeckError.at(where, f"{component.id}: {w:g} x {h:g} mm cards do not fit on a page of print profile "
                              f"{profile.name!r} ({profile.page[0]:g} x {profile.page[1]:g} mm, "
                              f"{spec.margin:g} mm margins, layout {spec.layout}); use a smaller size or a "
                              "profile with a larger page")


def write_pdf(ctx: BuildContext, profile: Profile, style: Style, images: Images) -> None:
    deck = ctx.deck
    game = deck.model.game
    text = labels(deck.lang)
    target = ctx.path(f"print/{deck.name}-{profile.name}.pdf")
    canvas = new_canvas(target, profile.page, f"{game.name} \u2014 print and play ({profile.name})",
                        game.author, profile.spec.description)
    page = profile.page
    for component in deck.model.components:
        items = component_items(ctx, component)
        if not items:
            continue
        sheet = sheet_for(profile, component)
        canvas.setPageSize((sheet.page[0] * mm, sheet.page[1] * mm))
        shape = component_shape(component)
        pages = [items[i:i + sheet.per_page] for i in range(0, len(items), sheet.per_page)]
        key = f"c-{component.id}"
        canvas.bookmarkPage(key)
        canvas.addOutlineEntry(component.name, key, level=0)
        for number, chunk in enumerate(pages, 1):
            footer = [f"{game.name} \u00b7 {component.name} \u00b7 {text['sheet']} {number}/{len(pages)}",
                      f"{component.name} \u00b7 {number}/{len(pages)}", f"{number}/{len(pages)}"]
            if profile.duplex:
                _front_page(canvas, sheet, chunk, shape, component, style, images, text, footer)
                _back_page(canvas, sheet, chunk, shape, style, images, text, footer)
            else:
                _gutterfold_page(canvas, sheet, chunk, shape, component, style, images, text, footer)
    if profile.spec.rules and has_rules(deck):
        canvas.bookmarkPage("rules")
        canvas.addOutlineEntry(text["rules"], "rules", level=0)
        canvas.setPageSize((page[0] * mm, page[1] * mm))
        set_boxes(canvas, None, None)
        draw_rules(canvas, deck, page, profile.spec.margin, profile.spec.rules_columns, profile.spec.font_size,
                   f"{game.name} {game.version}")
    canvas.save()


def _front_page(canvas, sheet: Sheet, chunk: list[Item], shape: str, component: Component, style: Style,
                images: Images, text: dict, footer: list[str]) -> None:
    slots = [sheet.front_slot(i) for i in range(len(chunk))]
    for item, slot in zip(chunk, slots):
        draw_face(canvas, images, item.front, slot, style.bleed_face, shape)
    trim, bleed = used_extent(sheet, len(chunk), back=False, mode=style.duplex)
    first = [f"{text['actual_size']} \u00b7 {text['fronts']}", text["actual_size"]]
    covered = margin_labels(canvas, sheet.page, bleed, first, footer)
    if component.type == "tokens":
        outlines(canvas, slots, shape, style)
    else:
        cut_lines(canvas, sheet.page, [(trim, bleed)], _within(sheet.fronts.col_edges(), trim.x, trim.x1),
                  _within(sheet.fronts.row_edges(), trim.y, trim.y1), style, covered)
    set_boxes(canvas, trim, bleed)
    canvas.showPage()


def _back_page(canvas, sheet: Sheet, chunk: list[Item], shape: str, style: Style, images: Images, text: dict,
               footer: list[str]) -> None:
    flip = view_flip(style.duplex, sheet.page)
    canvas.saveState()
    canvas.translate(style.offset[0] * mm, style.offset[1] * mm)
    for i, item in enumerate(chunk):
        if item.back:
            draw_face(canvas, images, item.back, sheet.back_slot(i, flip), style.bleed_face, shape)
    canvas.restoreState()
    trim, bleed = used_extent(sheet, len(chunk), back=True, mode=flip)
    trim, bleed = trim.moved(*style.offset), bleed.moved(*style.offset)
    first = [f"{text['backs']} ({style.duplex})", text["backs"]]
    margin_labels(canvas, sheet.page, bleed, first, footer)
    set_boxes(canvas, trim, bleed)
    canvas.showPage()


def view_flip(duplex: str, page: tuple[float, float]) -> str:
    """How the back page turns as seen on screen: `long-edge` = about the vertical axis.

    Printers name the flip after the paper's edge; on a landscape page the long edge is the top one,
    so a long-edge flip turns the page over its top edge, as a short-edge flip does a portrait page.
    """
    if page[0] <= page[1]:
        return duplex
    return "short-edge" if duplex == "long-edge" else "long-edge"


def _gutterfold_page(canvas, sheet: Sheet, chunk: list[Item], shape: str, component: Component, style: Style,
                     images: Images, text: dict, footer: list[str]) -> None:
    fronts = [sheet.front_slot(i) for i in range(len(chunk))]
    backs = [sheet.back_slot(i) for i in range(len(chunk))]
    for item, slot in zip(chunk, fronts):
        draw_face(canvas, images, item.front, slot, style.bleed_face, shape)
    for item, slot in zip(chunk, backs):
        if item.back:
            draw_face(canvas, images, item.back, slot, style.bleed_face, shape)
    ftrim, fbleed = used_extent(sheet, len(chunk), back=False, mode="")
    btrim, bbleed = used_extent(sheet, len(chunk), back=True, mode="")
    trim, bleed = ftrim.union(btrim), fbleed.union(bbleed)
    first = [f"{text['actual_size']} \u00b7 {text['gutterfold']}", text["actual_size"]]
    covered = margin_labels(canvas, sheet.page, bleed, first, footer)
    if component.type == "tokens":
        outlines(canvas, fronts + backs, shape, style)
    else:
        xs = _within(sheet.fronts.col_edges(), ftrim.x, ftrim.x1)
        ys = _within(sheet.fronts.row_edges(), ftrim.y, ftrim.y1) + _within(sheet.backs.row_edges(), btrim.y,
                                                                            btrim.y1)
        # No cut lines across the gutter: it holds the fold line.
        gutter = Rect(0, bbleed.y1, sheet.page[0], fbleed.y - bbleed.y1)
        cut_lines(canvas, sheet.page, [(ftrim, fbleed), (btrim, bbleed)], xs, ys, style, covered + [gutter])
    _fold_line(canvas, sheet, text)
    set_boxes(canvas, trim, bleed)
    canvas.showPage()


def _fold_line(canvas, sheet: Sheet, text: dict) -> None:
    y = sheet.fold_y
    canvas.setStrokeColor(colors.HexColor("#555555"))
    canvas.setLineWidth(0.3 * mm)
    canvas.setDash([2 * mm, 1.5 * mm])
    canvas.line(0, y * mm, sheet.page[0] * mm, y * mm)
    canvas.setDash([])
    canvas.setFillColor(colors.HexColor("#555555"))
    canvas.setFont(SANS, 6)
    canvas.drawString(1.5 * mm, y * mm + 2, text["fold"])
    canvas.drawRightString((sheet.page[0] - 1.5) * mm, y * mm + 2, text["fold"])


def _within(values: list[float], low: float, high: float) -> list[float]:
    return [v for v in values if low - 1e-6 <= v <= high + 1e-6]


def write_calibration(ctx: BuildContext, profile: Profile, style: Style) -> None:
    deck = ctx.deck
    target = ctx.path(f"print/calibration-{profile.name}.pdf")
    canvas = new_canvas(target, profile.page, f"Duplex calibration ({profile.name})", deck.model.game.author,
                        "Measure the printer's back-side offset")
    calibration(canvas, profile.page, style.offset, style.duplex,
                calibration_text(deck.lang, style.duplex, style.offset))
    canvas.save()

