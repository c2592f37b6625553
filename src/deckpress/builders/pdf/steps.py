"""Print-and-play PDFs: build/<deck>/print/<deck>-<profile>.pdf for every print profile the deck
picks (print/a4.yaml and print/letter.yaml unless it says otherwise), and, for each duplex profile,
print/calibration-<profile>.pdf to measure the printer's back-side offset.

A PDF holds, per component: pages of fronts at true size, each followed by its page of backs laid
out for the duplex mode (duplex profiles) or with the backs on the same page (gutterfold); then the
rules reminder pages. Print-shop profiles (`output: cards` or `images`) write one card per page or
an image per face instead. Details and every profile key: docs/print.md.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path

from PIL import Image
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from ...context import BuildContext
from ...changed import changes, printed_cards, words
from ...deck import LoadedDeck
from ...errors import DeckError
from ...faces import FaceCheck
from ...inputs import artifact_key, icon_files, model_inputs, plain, sha256_file
from ...render import DPI
from ...schema import Component
from . import PDFOptions
from .canvas import SANS, CmykFaces, Drafts, Images, new_canvas, plain_streams, register_fonts, save
from .cutters import Marks, area_sheet, cricut_image, draw_marks, marked_sheet
from .labels import calibration_text, labels
from .layout import Band, Rect, Sheet, Slot, duplex_sheet, gutterfold_sheet, token_pages
from .pages import (TEXT_BAND, Item, Style, calibration, component_shape, cut_lines, draw_face, labels as margin_labels,
                    outlines, reprint_list, set_boxes, used_extent)
from .pdffile import Layout
from .pdfx import GAMUT_DELTA_E, GAMUT_SHARE, Cmyk, gamut_shift
from .profiles import Profile, deck_profiles, tier_warnings
from .rules_style import load_rules_style


def load() -> None:
    """What the builder may use besides this module (`deckpress watch` imports it once): the rules'
    typesetting, reportlab's platypus (50 ms), which only a PDF written anew needs (not one reused or whose
    faces alone are replaced, as after a card's edit)."""
    from . import rules  # noqa: F401


def prepare(ctx: BuildContext) -> None:
    """While the faces are drawn (reportlab is imported with this module), for a first build, which writes every
    PDF: read the fonts every PDF uses and import the rules' typesetting. A later build reads the fonts with its
    first PDF written anew (new_canvas); after a card's edit, whose PDFs have their faces' images replaced,
    none is (35 ms of this process's work while the face is drawn)."""
    if ctx.previous is None:
        register_fonts()
        load()


def build(ctx: BuildContext, options: PDFOptions) -> None:
    """Every PDF (and shop image folder) of every profile, laid out for the printer as `options` say; a PDF
    whose record did not change is taken from the previous build as it is, a print PDF whose faces alone
    changed from the previous build with their images replaced (see `printed`)."""
    deck = ctx.deck
    profiles = deck_profiles(deck)
    duplex, cli_offset = options.duplex, tuple(options.back_offset)
    images = Images(ctx.out)
    model = model_inputs(deck)
    digests = {face.path: ctx.records.digest(face.path) for face in ctx.faces.all()}
    faces = list(digests.values())
    layout = None  # printed_inputs(ctx), made when a print PDF needs it
    stories: dict = {}  # the rules reminder's, shared by the PDFs whose columns are as wide
    with plain_streams():
        for profile in profiles:
            offset = (cli_offset[0] + profile.spec.back_offset[0], cli_offset[1] + profile.spec.back_offset[1])
            style = Style(bleed_face=deck.model.bleed, cut_lines=profile.spec.cut_lines,
                          cut_width=profile.spec.cut_line_width, cut_color=profile.spec.cut_line_color,
                          duplex=duplex, offset=offset, border=profile.border)
            made_of = [plain(profile.spec), profile.name, profile.page, profile.bleed, duplex, offset, deck.lang,
                       plain(load_rules_style(deck))]
            ctx.progress(f"print {profile.name}")
            if profile.cutter == "cricut":
                write_cricut(ctx, profile)
            elif profile.output == "cards":
                write_card_pdfs(ctx, profile, images, [*made_of, model, faces])
            elif profile.output == "images":
                write_images(ctx, profile)
            else:
                layout = layout or printed_inputs(ctx)
                shown = images
                if profile.spec.ink_coverage is not None:
                    shown = Images(ctx.out, Drafts(ctx.records, profile.spec.ink_coverage / 100))
                printed(ctx, f"print/{deck.name}-{profile.name}.pdf", [*made_of, layout], digests, shown,
                        lambda target: write_pdf(ctx, profile, style, shown, target, stories))
                if ctx.since is not None:
                    reprint(ctx, profile, style, shown, [*made_of, layout])
                if profile.duplex:
                    recorded(ctx, f"print/calibration-{profile.name}.pdf", [*made_of, deck.model.game.author],
                             lambda target: write_calibration(ctx, profile, style, target))


def reprints(deck: LoadedDeck) -> list[str]:
    """The reprint PDFs `build --changed-since` writes, one per profile of print sheets, when a card changed."""
    return [f"print/{deck.name}-{profile.name}-changed.pdf" for profile in deck_profiles(deck)
            if profile.output == "sheets" and profile.cutter != "cricut"]


def reprint(ctx: BuildContext, profile: Profile, style: Style, images: Images, made_of: list) -> None:
    """print/<deck>-<profile>-changed.pdf: the pages of the profile's PDF holding only the copies of the cards
    changed since --changed-since's REF (changed.changes), then the list of them and of the cards gone; none
    when no card is to be printed."""
    listed, gone = changes(ctx.since, printed_cards(ctx.deck, ctx.faces), ctx.records.digest)
    if not listed:
        return
    items = {}
    for change in listed:
        items.setdefault(change.component, []).extend([Item(*change.faces)] * change.copies)
    text = words(ctx.deck.lang)
    listing = [(text["title"].format(ref=ctx.since.label), [change.line(text) for change in listed])]
    if gone:
        listing.append((text["removed_title"].format(ref=ctx.since.label), [change.line(text) for change in gone]))
    faces = sorted({ctx.records.digest(face) for change in listed for face in change.faces if face})
    recorded(ctx, f"print/{ctx.deck.name}-{profile.name}-changed.pdf", [*made_of, listing, faces],
             lambda target: write_pdf(ctx, profile, style, images, target, items=items, listing=listing))


def recorded(ctx: BuildContext, target: str, made_of: list, write: Callable[[Path], None]) -> None:
    """The file `target`, written by `write(path)` unless the previous build's was made of the same."""
    key = artifact_key("pdf", target, made_of)
    if not ctx.records.reuse_file(target, key, target):
        since = ctx.records.making()
        write(ctx.path(target))
        ctx.records.keep(target, key, target, since)


def printed_inputs(ctx: BuildContext) -> list:
    """What a print PDF shows of the deck but its faces' pixels: the deck's model but the cards' own fields
    (their faces show them) with the faces each copy prints instead, and the digests of the files the model
    names beside it that reach the PDF (fonts, icons, the scripted game's records)."""
    deck = ctx.deck
    model = plain(deck.model)
    for component, shown in zip(deck.model.components, model["components"]):
        shown["cards"] = [[item.front, item.back] for item in component_items(ctx, component)]
    files = [*icon_files(deck), *(p for name, p in sorted(deck.fonts.items())
                                   if name in deck.model.fonts or name in deck.system_fonts)]
    game = deck.model.scripted
    if game is not None and game.records is not None:
        files += [game.records.path, *([game.records.python] if game.records.python else [])]
    return [model, [sha256_file(path) for path in files]]


def printed(ctx: BuildContext, target: str, made_of: list, faces: dict[str, str], images: Images,
            write: Callable[[Path], dict[str, int]]) -> None:
    """The print PDF `target`, made of `made_of` (all it shows but the faces' pixels) and the faces `faces`
    (path: digest): taken from the previous build when its record has the same key and faces; made from the
    previous build's file when only some faces changed, their images' objects written anew (as canvas.save
    writes them: the bytes `write` would write); else written by `write(path)`, which returns the object
    number of each face's image."""
    records = ctx.records
    key = artifact_key("pdf", target, made_of)
    value = records.get(target, key)
    drawn = value.get("faces") if value is not None else None
    if isinstance(drawn, dict) and all(isinstance(v, list) and len(v) == 2 for v in drawn.values()):
        changed = {rel: number for rel, (number, digest) in drawn.items() if faces.get(rel) != digest}
        if not changed and records.reuse_file(target, key, target):
            return
        if changed and _replaced(ctx, target, key, value, changed, faces, images):
            return
    since = records.making()
    numbers = write(ctx.path(target))
    records.keep(target, key, target, since, {"faces": {rel: [n, faces[rel]] for rel, n in sorted(numbers.items())}})


def _replaced(ctx: BuildContext, target: str, key: str, value: dict, changed: dict[str, int],
              faces: dict[str, str], images: Images) -> bool:
    """Write `target` as the previous build's file (when it has the bytes recorded in `value`) with the image
    objects of the `changed` faces (path: object number) made again from the faces; whether it did."""
    records = ctx.records
    objects = {number: images.writer(rel) for rel, number in changed.items()
               if isinstance(number, int) and rel in faces}
    uses = records.used(value)
    if uses is None or len(objects) != len(changed):
        return False
    old = records.previous_bytes(target, value.get("sha256"))
    pdf = Layout.read(old) if old is not None else None
    if pdf is None or not all(0 < number < pdf.count for number in objects):
        return False
    since = records.making()
    if not records.put_again(uses):  # as a clean build puts them while writing the PDF (the rules' plan)
        return False
    pdf.write(ctx.path(target), objects)
    drawn = {rel: [number, faces[rel]] for rel, (number, _) in sorted(value["faces"].items())}
    records.keep(target, key, target, since, {"faces": drawn})
    return True


def check(deck: LoadedDeck, faces: FaceCheck | None = None) -> None:
    """The deck's print profiles load and validate, and every component fits on their pages (a DeckError
    otherwise). With `deckpress check`'s `faces`: the print shops' warnings, card counts between a shop's
    deck sizes, and, for each profile that prints CMYK (pdfx), each face it prints whose colours move far
    when printed (more than GAMUT_SHARE of its pixels by more than GAMUT_DELTA_E, docs/print.md), measured
    on the faces as the check draws them: one line per component and profile, with the count and the worst."""
    profiles = deck_profiles(deck)
    for profile in profiles:
        for component in deck.model.components:
            sheet_for(profile, component)
    load_rules_style(deck)
    if faces is None:
        return
    faces.warnings.extend(tier_warnings(deck))
    cmyks = [(p.name, Cmyk(p.cmyk_profile, p.spec.ink_limit)) for p in profiles if p.cmyk_profile]
    if not cmyks:
        return

    # what an `output: cards` PDF prints: the cards of card components, and their backs
    printed = [f for f in faces.planned if f.component.type != "tokens" and (f.card is None or f.card.count)]
    shifted: dict[tuple[str, str], list[tuple[float, str]]] = {}  # by component and profile: (share, face's name)

    def look(face, image) -> None:
        for name, cmyk in cmyks:
            share = gamut_shift(image, cmyk.proof(image))
            if share > GAMUT_SHARE:
                shifted.setdefault((face.component.id, name), []).append(
                    (share, face.path.rsplit("/", 1)[-1].removesuffix(".png")))

    def said() -> list[str]:
        out = []
        for component in deck.model.components:
            for name, _ in cmyks:
                found = shifted.get((component.id, name))
                if found:
                    share, worst = max(found)
                    proofed = sum(f.component is component for f in printed)
                    out.append(f"{component.where}: warning: soft proof ({name}): {len(found)} of "
                               f"{proofed} faces of {component.id} change colour by more than "
                               f"\u0394E {GAMUT_DELTA_E} in CMYK, most {worst!r} ({share:.0%} of it): colours "
                               f"outside what inks print come out duller; `deckpress preview {deck.name} --profile "
                               f"{name}` shows them")
        return out

    faces.see(printed, look, said)


def component_items(ctx: BuildContext, component: Component) -> list[Item]:
    """Every copy of every card of the component, in deck order; a back of None prints nothing,
    except for tokens, whose front shows on both sides."""
    return [Item(*ctx.faces.printed(component, card)) for card in component.cards for _ in range(card.count)]


def sheet_for(profile: Profile, component: Component) -> Sheet:
    """The layout of the component's pages: in the profile's orientation, or turned when nothing fits
    that way (e.g. tarot cards on a landscape gutterfold page).

    Two margins of the page (top and bottom, or left and right: whichever way more fit) keep room for
    the margin texts between the printable border and the cards' bleed; the other two are the
    profile's `margin`.
    """
    w, h = component.size
    spec = profile.spec
    gap = spec.token_gap if component.type == "tokens" else spec.gap
    if profile.cutter != "none":
        return _cutter_sheet(profile, component, gap)
    texts = max(spec.margin, profile.border + TEXT_BAND + profile.bleed)
    for page in (profile.page, profile.page[::-1]):
        best = None
        for margin in ((spec.margin, texts), (texts, spec.margin)):
            if profile.duplex:
                sheet = duplex_sheet(page, margin, w, h, gap, profile.bleed)
            else:
                sheet = gutterfold_sheet(page, margin, w, h, gap, profile.bleed, spec.gutter)
            if sheet is not None and (best is None or sheet.per_page > best.per_page):
                best = sheet
        if best is not None:
            return best
    where = component.source.at("size") if "size" in component.source else component.where
    raise DeckError.at(where, f"{component.id}: {w:g} x {h:g} mm cards do not fit on a page of print profile "
                              f"{profile.name!r} ({profile.page[0]:g} x {profile.page[1]:g} mm, "
                              f"{spec.margin:g} mm margins, layout {spec.layout}); use a smaller size or a "
                              "profile with a larger page")


def _cutter_sheet(profile: Profile, component: Component, gap: float) -> Sheet:
    """A cutting machine's sheet: inside Silhouette's registration marks (the page turned when more fit that
    way), or Cricut's print area."""
    w, h = component.size
    if profile.cutter == "cricut":
        area = tuple(profile.spec.print_area)
        sheet = area_sheet(area, w, h, gap)
        where_fits = f"Design Space's print area ({area[0]:g} x {area[1]:g} mm)"
    else:
        sheets = [marked_sheet(profile.marks(page), w, h, gap, profile.bleed)
                  for page in (profile.page, profile.page[::-1])]
        sheet = max((s for s in sheets if s is not None), key=lambda s: s.per_page, default=None)
        where_fits = (f"a {profile.page[0]:g} x {profile.page[1]:g} mm page inside registration marks "
                      f"{profile.spec.mark_inset:g} mm from its edges")
    if sheet is not None:
        return sheet
    where = component.source.at("size") if "size" in component.source else component.where
    raise DeckError.at(where, f"{component.id}: {w:g} x {h:g} mm cards do not fit {where_fits} (print profile "
                              f"{profile.name!r}); use a smaller size or another profile")


def write_pdf(ctx: BuildContext, profile: Profile, style: Style, images: Images, target: Path,
              stories: dict | None = None, items: dict[str, list[Item]] | None = None,
              listing: list[tuple[str, list[str]]] | None = None) -> dict[str, int]:
    """The print PDF of `profile` at `target`; returns the object number of each face's image in it. A reprint
    (`items`: the copies of some cards, by component id) ends with its `listing` (headings and their lines)
    instead of the rules."""
    deck = ctx.deck
    game = deck.model.game
    text = labels(deck.lang)
    name = game.name if listing is None else f"{game.name} \u00b7 {text['reprint']}"
    canvas = new_canvas(profile.page, f"{name} \u2014 print and play ({profile.name})",
                        game.author, profile.spec.description, style.duplex if profile.duplex else "simplex")
    page = profile.page
    if items is None:
        items = {component.id: component_items(ctx, component) for component in deck.model.components}
    shared = shared_tokens(ctx, profile, items) if profile.cutter == "none" else None
    for component in deck.model.components:
        items_of = items.get(component.id, [])
        if not items_of:
            continue
        if shared and any(c is component for c, _ in shared[0]):
            if component is shared[0][0][0]:  # the shared token pages go where the first token set is
                _shared_token_pages(canvas, profile, style, images, text, name, *shared)
            continue
        sheet = sheet_for(profile, component)
        canvas.setPageSize((sheet.page[0] * mm, sheet.page[1] * mm))
        shape = component_shape(component)
        pages = [items_of[i:i + sheet.per_page] for i in range(0, len(items_of), sheet.per_page)]
        key = f"c-{component.id}"
        canvas.bookmarkPage(key)
        canvas.addOutlineEntry(component.name, key, level=0)
        for number, chunk in enumerate(pages, 1):
            footer = [f"{name} \u00b7 {component.name} \u00b7 {text['sheet']} {number}/{len(pages)}",
                      f"{component.name} \u00b7 {number}/{len(pages)}", f"{number}/{len(pages)}"]
            if profile.duplex:
                marks = profile.marks(sheet.page) if profile.cutter == "silhouette" else None
                _front_page(canvas, sheet, chunk, shape, component, style, images, text, footer, marks)
                _back_page(canvas, sheet, chunk, shape, style, images, text, footer, marks is not None)
            else:
                _gutterfold_page(canvas, sheet, chunk, shape, component, style, images, text, footer)
    if listing is not None:
        canvas.bookmarkPage("list")
        canvas.addOutlineEntry(listing[0][0], "list", level=0)
        reprint_list(canvas, (min(page), max(page)), profile.spec.margin, listing)
        return save(canvas, target, images)
    from .rules import draw_rules, has_rules  # see load

    if profile.spec.rules and has_rules(deck):
        canvas.bookmarkPage("rules")
        canvas.addOutlineEntry(text["rules"], "rules", level=0)
        page = (min(page), max(page))  # rules read in columns on a portrait page, whatever the cards'
        canvas.setPageSize((page[0] * mm, page[1] * mm))
        set_boxes(canvas, None, None)
        look = load_rules_style(deck)
        draw_rules(canvas, deck, page, profile.spec.margin, look, profile.spec.rules_columns or look.columns,
                   profile.spec.font_size or look.font_size,
                   f"{game.name} {game.version}", ctx.records, stories)
    return save(canvas, target, images)


def shared_tokens(ctx: BuildContext, profile: Profile, items: dict[str, list[Item]]
                  ) -> tuple[list[tuple[Component, list[Item]]], list[list[Band]], Rect] | None:
    """The deck's token components (those that fit the profile's page as it is turned) and their shared
    pages, when there are two or more such components: each component's tokens in bands of whole rows,
    the components one after the other, so that the pages are as few as the tokens' sizes allow; and the
    area they are laid out in (the margin texts go around it): the page within its margins, or on a
    gutterfold page the part of it above the gutter, the backs going below (Band.sheet)."""
    sets = [(c, items.get(c.id, [])) for c in ctx.deck.model.components if c.type == "tokens"]
    spec = profile.spec
    (width, height), mx = profile.page, spec.margin
    my = max(spec.margin, profile.border + TEXT_BAND + profile.bleed)  # texts above, below
    area = Rect(mx, my, width - 2 * mx, height - 2 * my)
    if not profile.duplex:
        bottom = height / 2 + spec.gutter / 2
        area = Rect(mx, bottom, width - 2 * mx, height - my - bottom)
    sets = [(c, items) for c, items in sets if items and token_pages(area, [(*c.size, 1)], spec.token_gap,
                                                                     profile.bleed)]
    if len(sets) < 2:
        return None
    pages = token_pages(area, [(*c.size, len(items)) for c, items in sets], spec.token_gap, profile.bleed)
    assert pages is not None  # each set fits on its own
    return sets, pages, area


def _shared_token_pages(canvas, profile: Profile, style: Style, images: Images, text: dict, game: str,
                        sets: list[tuple[Component, list[Item]]], pages: list[list[Band]], area: Rect) -> None:
    """Pages of several token components, each page of fronts followed by its page of backs (on a
    gutterfold page, the backs below the fold); every band keeps its component's shape and cut outlines,
    and its backs land behind its fronts."""
    page = profile.page
    canvas.setPageSize((page[0] * mm, page[1] * mm))
    flip = view_flip(style.duplex, page)
    fold = None if profile.duplex else page[1] / 2
    marked: set[int] = set()
    for number, bands in enumerate(pages, 1):
        for band in bands:
            if band.component not in marked:
                marked.add(band.component)
                component = sets[band.component][0]
                canvas.bookmarkPage(f"c-{component.id}")
                canvas.addOutlineEntry(component.name, f"c-{component.id}", level=0)
        names = " \u00b7 ".join(dict.fromkeys(sets[b.component][0].name for b in bands))
        footer = [f"{game} \u00b7 {names} \u00b7 {text['sheet']} {number}/{len(pages)}",
                  f"{text['tokens']} \u00b7 {number}/{len(pages)}", f"{number}/{len(pages)}"]
        extent = area.grow(*(profile.bleed,) * 4)
        sheets = [band.sheet(page, profile.bleed, flip, fold, profile.spec.gutter) for band in bands]
        if fold is not None:
            extent = extent.union(Rect(area.x, 2 * fold - area.y1, area.w, area.h).grow(*(profile.bleed,) * 4))
            _shared_gutterfold_page(canvas, bands, sheets, sets, style, images, text, footer, extent)
            continue
        for back in (False, True):
            all_slots = []
            if back:
                canvas.saveState()
                canvas.translate(style.offset[0] * mm, style.offset[1] * mm)
            for band, sheet in zip(bands, sheets):
                component, items = sets[band.component]
                chunk = items[band.first:band.first + band.count]
                slots = sheet.back_slots(len(chunk), flip) if back else sheet.front_slots(len(chunk))
                shape = component_shape(component)
                for item, slot in zip(chunk, slots):
                    face = item.back if back else item.front
                    if face:
                        draw_face(canvas, images, face, slot, style.bleed_face, shape)
                if not back:
                    outlines(canvas, slots, component.shape, style, component.corner_radius)
                all_slots += slots
            if back:
                canvas.restoreState()
            trim, bleed = used_extent(all_slots)
            if back:
                trim, bleed = trim.moved(*style.offset), bleed.moved(*style.offset)
                first = [f"{text['backs']} ({text[style.duplex]})", text["backs"]]
                margin_labels(canvas, page, extent.moved(*style.offset), style.border, first, footer, bar=False)
            else:
                first = [f"{text['actual_size']} \u00b7 {text['fronts']}", text["actual_size"]]
                margin_labels(canvas, page, extent, style.border, first, footer, unit=text["mm"])
            set_boxes(canvas, trim, bleed)
            canvas.showPage()


def _shared_gutterfold_page(canvas, bands: list[Band], sheets: list[Sheet], sets: list[tuple[Component, list[Item]]],
                            style: Style, images: Images, text: dict, footer: list[str], extent: Rect) -> None:
    """One gutterfold page of shared tokens: each band's fronts above the fold, their backs mirrored below
    it and turned, every token with its cut outline on both halves; the notices and the fold line."""
    all_slots = []
    for band, sheet in zip(bands, sheets):
        component, items = sets[band.component]
        chunk = items[band.first:band.first + band.count]
        shape = component_shape(component)
        fronts, backs = sheet.front_slots(len(chunk)), sheet.back_slots(len(chunk))
        for item, front, back in zip(chunk, fronts, backs):
            draw_face(canvas, images, item.front, front, style.bleed_face, shape)
            if item.back:
                draw_face(canvas, images, item.back, back, style.bleed_face, shape)
        outlines(canvas, fronts + backs, component.shape, style, component.corner_radius)
        all_slots += fronts + backs
    page = sheets[0].page
    first = [f"{text['actual_size']} \u00b7 {text['gutterfold']}", text["actual_size"]]
    margin_labels(canvas, page, extent, style.border, first, footer, unit=text["mm"])
    _fold_line(canvas, sheets[0], text, style.border)
    set_boxes(canvas, *used_extent(all_slots))
    canvas.showPage()


def _front_page(canvas, sheet: Sheet, chunk: list[Item], shape: str, component: Component, style: Style,
                images: Images, text: dict, footer: list[str], marks: Marks | None = None) -> None:
    """A page of fronts: with `marks` (Silhouette), the registration marks and a cut contour at every trim,
    and no margin texts (the back page has them); else the notices, the scale bar and the cut guides."""
    slots = sheet.front_slots(len(chunk))
    for item, slot in zip(chunk, slots):
        draw_face(canvas, images, item.front, slot, style.bleed_face, shape)
    trim, bleed = used_extent(slots)
    if marks is not None:
        draw_marks(canvas, marks)
        outlines(canvas, slots, component.shape, style, component.corner_radius)
        set_boxes(canvas, trim, bleed)
        canvas.showPage()
        return
    first = [f"{text['actual_size']} \u00b7 {text['fronts']}", text["actual_size"]]
    covered = margin_labels(canvas, sheet.page, sheet.extent, style.border, first, footer, unit=text["mm"])
    if component.type == "tokens":
        outlines(canvas, slots, component.shape, style, component.corner_radius)
    else:
        cut_lines(canvas, sheet.page, [s.trim for s in slots], _within(sheet.fronts.col_edges(), trim.x, trim.x1),
                  _within(sheet.fronts.row_edges(), trim.y, trim.y1), style, covered)
    set_boxes(canvas, trim, bleed)
    canvas.showPage()


def _back_page(canvas, sheet: Sheet, chunk: list[Item], shape: str, style: Style, images: Images, text: dict,
               footer: list[str], notice: bool = False) -> None:
    """A page of backs; with `notice` (a Silhouette sheet, whose fronts carry no texts) it says to print at
    actual size too."""
    flip = view_flip(style.duplex, sheet.page)
    slots = sheet.back_slots(len(chunk), flip)
    canvas.saveState()
    canvas.translate(style.offset[0] * mm, style.offset[1] * mm)
    for item, slot in zip(chunk, slots):
        if item.back:
            draw_face(canvas, images, item.back, slot, style.bleed_face, shape)
    canvas.restoreState()
    trim, bleed = used_extent(slots)
    trim, bleed = trim.moved(*style.offset), bleed.moved(*style.offset)
    first = [f"{text['backs']} ({text[style.duplex]})", text["backs"]]
    if notice:
        first = [f"{text['actual_size']} \u00b7 {first[0]}", text["actual_size"]]
    margin_labels(canvas, sheet.page, sheet.extent.moved(*style.offset), style.border, first, footer, bar=notice,
                  unit=text["mm"])
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
    fronts = sheet.front_slots(len(chunk))
    backs = sheet.back_slots(len(chunk))
    for item, slot in zip(chunk, fronts):
        draw_face(canvas, images, item.front, slot, style.bleed_face, shape)
    for item, slot in zip(chunk, backs):
        if item.back:
            draw_face(canvas, images, item.back, slot, style.bleed_face, shape)
    ftrim, fbleed = used_extent(fronts)
    btrim, bbleed = used_extent(backs)
    trim, bleed = ftrim.union(btrim), fbleed.union(bbleed)
    first = [f"{text['actual_size']} \u00b7 {text['gutterfold']}", text["actual_size"]]
    covered = margin_labels(canvas, sheet.page, sheet.extent, style.border, first, footer, unit=text["mm"])
    covered += _fold_line(canvas, sheet, text, style.border)
    if component.type == "tokens":
        outlines(canvas, fronts + backs, component.shape, style, component.corner_radius)
    else:
        xs = _within(sheet.fronts.col_edges(), ftrim.x, ftrim.x1)
        ys = _within(sheet.fronts.row_edges(), ftrim.y, ftrim.y1) + _within(sheet.backs.row_edges(), btrim.y,
                                                                            btrim.y1)
        # No cut lines across the gutter between the bleeds: it holds the fold line.
        gutter = Rect(0, bbleed.y1, sheet.page[0], fbleed.y - bbleed.y1)
        cut_lines(canvas, sheet.page, [s.trim for s in fronts + backs], xs, ys, style, covered + [gutter])
    set_boxes(canvas, trim, bleed)
    canvas.showPage()


def _fold_line(canvas, sheet: Sheet, text: dict, border: float) -> list[Rect]:
    """The dashed fold line across the page, broken for the word "fold" at each end, inside the
    printable border; returns where the words are."""
    y = sheet.fold_y
    size = 6
    word = stringWidth(text["fold"], SANS, size) / mm
    left, right = border + 0.5, sheet.page[0] - border - 0.5
    grey = colors.HexColor("#555555")
    canvas.setFillColor(grey)
    canvas.setFont(SANS, size)
    baseline = (y - size * 0.3528 * 0.36) * mm
    canvas.drawString(left * mm, baseline, text["fold"])
    canvas.drawRightString(right * mm, baseline, text["fold"])
    canvas.setStrokeColor(grey)
    canvas.setLineWidth(0.3 * mm)
    canvas.setDash([2 * mm, 1.5 * mm])
    canvas.line(0, y * mm, (left - 0.8) * mm, y * mm)
    canvas.line((left + word + 0.8) * mm, y * mm, (right - word - 0.8) * mm, y * mm)
    canvas.line((right + 0.8) * mm, y * mm, sheet.page[0] * mm, y * mm)
    canvas.setDash([])
    height = size * 0.3528
    return [Rect(left, y - height / 2, word, height), Rect(right - word, y - height / 2, word, height)]


def _within(values: list[float], low: float, high: float) -> list[float]:
    return [v for v in values if low - 1e-6 <= v <= high + 1e-6]


def write_card_pdfs(ctx: BuildContext, profile: Profile, images: Images, made_of: list) -> None:
    """For each card component, print/<deck>-<profile>-<component>.pdf: one card per page, the page
    the card's trim plus the profile's bleed (TrimBox the trim), each card's back followed by its front,
    every copy: what DriveThruCards asks for (one PDF per deck, back then front)."""
    deck = ctx.deck
    cmyk = None
    if profile.cmyk_profile is not None:  # pdfx
        cmyk = Cmyk(profile.cmyk_profile, profile.spec.ink_limit)
        images = Images(ctx.out, CmykFaces(ctx.records, cmyk))
        made_of = [*made_of, cmyk.icc_digest]
    for component in deck.model.components:
        items = component_items(ctx, component)
        if component.type == "tokens" or not items:
            continue
        recorded(ctx, f"print/{deck.name}-{profile.name}-{component.id}.pdf", made_of,
                 lambda target: _card_pdf(ctx, profile, images, component, items, target, cmyk))


def _card_pdf(ctx: BuildContext, profile: Profile, images: Images, component: Component, items: list[Item],
              target: Path, cmyk: Cmyk | None) -> None:
    game = ctx.deck.model.game
    bleed = profile.bleed
    w, h = component.size
    page = (w + 2 * bleed, h + 2 * bleed)
    canvas = new_canvas(page, f"{game.name} \u2014 {component.name} ({profile.name})", game.author,
                        profile.spec.description, pdfx=cmyk is not None)
    slot = Slot(Rect(bleed, bleed, w, h), (bleed,) * 4)
    trim, whole = Rect(bleed, bleed, w, h), Rect(0, 0, *page)
    for item in items:
        for face in (item.back, item.front):
            if face is not None:
                draw_face(canvas, images, face, slot, ctx.deck.model.bleed)
            set_boxes(canvas, trim, whole)
            canvas.showPage()
    save(canvas, target, images, cmyk)


def write_cricut(ctx: BuildContext, profile: Profile) -> None:
    """print/<deck>-<profile>/<component>-<n>.png: each sheet of fronts as Design Space's Print Then Cut takes
    it (builders/pdf/cutters.py), the sheets of a component numbered from 1."""
    deck = ctx.deck
    for component in deck.model.components:
        items = component_items(ctx, component)
        if not items:
            continue
        sheet = sheet_for(profile, component)
        pages = [items[i:i + sheet.per_page] for i in range(0, len(items), sheet.per_page)]
        for number, chunk in enumerate(pages, 1):
            target = ctx.path(f"print/{deck.name}-{profile.name}/{component.id}-{number}.png")
            cricut_image(sheet, [ctx.out / item.front for item in chunk], deck.model.bleed, component.shape, target,
                         component.corner_radius)


def write_images(ctx: BuildContext, profile: Profile) -> None:
    """print/<deck>-<profile>/<component>/: every face at the trim plus the profile's `image_bleed`, 300
    DPI, cut from the face images (copied as they are when the bleed is the deck's), and cards.csv
    listing each card's front, back and count (shops ask how many of each)."""
    deck = ctx.deck
    folder = f"print/{deck.name}-{profile.name}"
    bleed = profile.spec.image_bleed
    for component in deck.model.components:
        if component.type == "tokens" and not profile.spec.tokens:
            continue
        rows, written = [], set()
        w, h = component.size
        size = (round((w + 2 * bleed) * DPI / 25.4), round((h + 2 * bleed) * DPI / 25.4))
        for card in component.cards:
            if not card.count:
                continue
            front = ctx.faces.front(component, card).path
            back_face = ctx.faces.back(component, card)
            back = back_face.path if back_face else None
            for rel in (front, back):
                if rel is not None and rel not in written:
                    written.add(rel)
                    _shop_image(ctx, rel, f"{folder}/{component.id}/{rel.rsplit('/', 1)[-1]}", size)
            rows.append([front.rsplit("/", 1)[-1], back.rsplit("/", 1)[-1] if back else "", card.count])
        if rows:
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(["front", "back", "count"])
            writer.writerows(rows)
            ctx.path(f"{folder}/{component.id}/cards.csv").write_text(out.getvalue(), encoding="utf-8")


def _shop_image(ctx: BuildContext, rel: str, target: str, size: tuple[int, int]) -> None:
    """The face `rel` cut to `size` pixels about its centre (the trim stays centred within half a pixel)."""
    source = ctx.out / rel
    with Image.open(source) as image:
        if image.size == size:
            ctx.path(target).write_bytes(source.read_bytes())
            return
        left, top = (image.width - size[0]) // 2, (image.height - size[1]) // 2
        image.crop((left, top, left + size[0], top + size[1])).save(ctx.path(target), dpi=(DPI, DPI))


def write_calibration(ctx: BuildContext, profile: Profile, style: Style, target: Path) -> None:
    deck = ctx.deck
    canvas = new_canvas(profile.page, f"Duplex calibration ({profile.name})", deck.model.game.author,
                        "Measure the printer's back-side offset", style.duplex)
    calibration(canvas, profile.page, style.offset, style.duplex,
                calibration_text(deck.lang, style.duplex, style.offset))
    save(canvas, target)

