"""Colour-blind players: the faces as a protanope, a deuteranope or a tritanope sees them (`deckpress preview
--simulate`), and `deckpress check --colour-blind`'s warning of cards a component tells apart by a field
(`colour_blind: {distinct_by: suit}`) that such a player cannot tell apart by colour.

The model is Machado, Oliveira & Fernandes 2009, "A Physiologically-based Model for Simulation of Color
Vision Deficiency", IEEE Transactions on Visualization and Computer Graphics 15(6), 1291-1298: at severity
1.0 (dichromacy), one 3 x 3 matrix per condition, applied to linear-light sRGB (the matrices of the paper's
table of severities, www.inf.ufrgs.br/~oliveira/pubs_files/CVD_Simulation/CVD_Simulation.html).

Two cards are compared on the pixels where they differ for a viewer of normal vision (more than
REGION_DELTA_E, CIE76): each card's mean colour there, in linear light, as each viewer sees it, then the
CIEDE2000 difference of the two means (Sharma, Wu & Dalal 2005). A pair at least DELTA_E apart for normal
vision and less than DELTA_E apart for a condition looks alike by colour alone to that player.
"""

from __future__ import annotations

import math
from itertools import combinations
from operator import mul

from PIL import Image, ImageCms, ImageMath

from .deck import LoadedDeck
from .draw import mm_to_px
from .faces import Face, FaceCheck

# Machado et al. 2009, severity 1.0: linear RGB in, linear RGB out, by rows.
CONDITIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
WIDTH = 64  # px: the faces are compared at this width, their bleed cut off
DELTA_E = 10  # CIEDE2000: below it, two flat colours side by side read as the same at a glance
REGION_DELTA_E = 10  # CIE76, per pixel: the pixels where two faces differ for normal vision

_LAB = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")


def _decode(v: float) -> float:
    """sRGB (0-1) to linear light (IEC 61966-2-1)."""
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encode(x: float) -> float:
    """Linear light to sRGB (0-1), clipped to what a screen shows."""
    x = min(max(x, 0.0), 1.0)
    return 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055


DECODE = [_decode(v / 255) for v in range(256)]  # an 8-bit sRGB value's linear light


def simulate(image: Image.Image, condition: str) -> Image.Image:
    """The RGB `image` as a viewer with `condition` (a key of CONDITIONS) sees it."""
    linear = [band.point(DECODE, "F") for band in image.convert("RGB").split()]
    bands = []
    for row in CONDITIONS[condition]:
        def channel(a, row=row):  # the row's mix of the linear bands, clipped to 0-1, encoded as _encode does
            x = a["min"](a["max"](a["r"] * row[0] + a["g"] * row[1] + a["b"] * row[2], 0.0), 1.0)
            curved = x > 0.0031308
            encoded = curved * (1.055 * x ** (1 / 2.4) - 0.055) + (1 - curved) * (12.92 * x)
            return a["convert"](encoded * 255 + 0.5, "L")

        bands.append(ImageMath.lambda_eval(channel, r=linear[0], g=linear[1], b=linear[2]))
    return Image.merge("RGB", bands)


def lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear-light sRGB colour."""
    r, g, b = linear
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b, 0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)
    fx, fy, fz = (t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
                  for t in (v / w for v, w in zip(xyz, (0.95047, 1.0, 1.08883))))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """CIEDE2000 between two CIELAB colours (Sharma, Wu & Dalal 2005, with kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0 if not c1 * c2 else h2 - h1 - 360 if h2 - h1 > 180 else h2 - h1 + 360 if h2 - h1 < -180 else h2 - h1
    dh_big = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    rt = (-2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh_big / sh) ** 2 + rt * (dc / sc) * (dh_big / sh))


def _mean(image: Image.Image, mask: Image.Image) -> tuple[float, float, float]:
    """The mean linear-light colour of the RGB `image` over the pixels `mask` holds."""
    counts = image.histogram(mask)
    total = sum(counts[:256])
    return tuple(sum(map(mul, counts[256 * i:256 * (i + 1)], DECODE)) / total for i in range(3))


class _Seen:
    """A front as `check` compares it: small, as each viewer sees it, and in CIELAB for normal vision."""

    def __init__(self, image: Image.Image, bleed: int):
        trimmed = image.convert("RGB").crop((bleed, bleed, image.width - bleed, image.height - bleed))
        small = trimmed.resize((WIDTH, max(1, round(trimmed.height * WIDTH / trimmed.width))), Image.BOX)
        self.views = {"normal vision": small, **{c: simulate(small, c) for c in CONDITIONS}}
        self.lab = _LAB.apply(small).split()


def _region(one: _Seen, two: _Seen) -> Image.Image:
    """The pixels where two faces differ by more than REGION_DELTA_E for normal vision, as a mask."""
    scale = 100 / 255  # Pillow's L runs 0-255 for 0-100; a and b are 128 + their value

    def far(m):
        dl, da, db = m["l1"] - m["l2"], m["a1"] - m["a2"], m["b1"] - m["b2"]
        return m["convert"]((dl * dl * (scale * scale) + da * da + db * db > REGION_DELTA_E ** 2) * 255, "L")

    (l1, a1, b1), (l2, a2, b2) = one.lab, two.lab
    return ImageMath.lambda_eval(far, l1=l1, a1=a1, b1=b1, l2=l2, a2=a2, b2=b2)


def differences(one: _Seen, two: _Seen) -> dict[str, float] | None:
    """The CIEDE2000 difference of two faces' colours where they differ, for normal vision and each
    condition; None where they do not differ."""
    region = _region(one, two)
    if not region.getbbox():
        return None
    return {view: delta_e(lab(_mean(one.views[view], region)), lab(_mean(two.views[view], region)))
            for view in one.views}


def check(deck: LoadedDeck, faces: FaceCheck) -> None:
    """`deckpress check --colour-blind`: for each component with `colour_blind: {distinct_by: FIELD}`, the
    pairs of its cards in play whose FIELD differs, distinct by colour for normal vision, that look alike to
    a player with a condition: one warning per component and condition, with the count and the closest pair.
    A deck where no component names a field is told so."""
    components = [c for c in deck.model.components if c.colour_blind is not None]
    if not components:
        faces.warnings.append(f"{deck.model.where}: warning: --colour-blind compares the cards a component tells "
                              "apart by a field, and no component names one; add e.g. `colour_blind: "
                              "{distinct_by: suit}` to a component")
        return
    bleed = round(mm_to_px(deck.model.bleed))
    fronts = {f.path: f for f in faces.planned
              if f.component in components and f.card is not None and f.card.count}
    seen: dict[str, _Seen] = {}

    def look(face: Face, image) -> None:
        seen[face.path] = _Seen(image, bleed)

    def said() -> list[str]:
        out = []
        for component in components:
            field = component.colour_blind.distinct_by
            cards = [(f.card, seen[f.path]) for f in fronts.values() if f.component is component]
            alike: dict[str, list[tuple[float, float, str, str]]] = {}
            for (card, one), (other, two) in combinations(cards, 2):
                if card.fields().get(field) == other.fields().get(field):
                    continue
                found = differences(one, two)
                if found is None or found["normal vision"] < DELTA_E:
                    continue  # no player tells them apart by colour
                for condition in CONDITIONS:
                    if found[condition] < DELTA_E:
                        alike.setdefault(condition, []).append(
                            (found[condition], found["normal vision"], card.id, other.id))
            for condition, pairs in alike.items():
                closest, normal, one_id, two_id = min(pairs)
                many = len(pairs) > 1
                out.append(f"{component.colour_blind.source.at('distinct_by')}: warning: under {condition} "
                           f"{len(pairs)} pair{'s' if many else ''} of cards of {component.id} with a different "
                           f"{field} look{'' if many else 's'} alike, {'most ' if many else ''}{one_id!r} and "
                           f"{two_id!r} (\u0394E {closest:.1f} < {DELTA_E}, {normal:.0f} for normal vision); "
                           f"`deckpress preview {deck.name} --simulate {condition}` shows them")
        return out

    faces.see(list(fronts.values()), look, said)
