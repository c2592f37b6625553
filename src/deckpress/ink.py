"""Low-ink drafts of faces, for a print profile's `ink_coverage` (docs/print.md, "Drafts"): the face's large
areas lightened so that no square of AREA_MM mm holds more than the coverage asked, its text and thin lines
kept as dark as they are over the lighter ground.

A pixel's ink is the mean of its cyan, magenta and yellow, 1 - (R + G + B) / 765: a black pixel is 1, white 0;
an area's coverage the mean of its pixels' inks. The face is split into its ground and the detail over it
(`_ground`) by morphological closings and openings (each band the least of the greatest values around, over a
square of DETAIL_MM, or the other way round): every stroke thinner than that, text, lines, outlines, dark or
light, filled in with the ground around it; but a thin stroke of the colour most of the MAJORITY_MM around has
(their median) is the fill showing through, between and inside light letters on a dark fill, and is ground. Each
pixel of the ground is mixed with white, its hue kept: a ground of ink L to the tone coverage * tanh(L /
coverage) (pale grounds nearly as they are, dark ones to the coverage at most), then the whole face's ground by
one more factor `k`, the largest that brings every square to the coverage with the detail over it. Dark detail
keeps its ratio to its ground (R / ground's R, per band), which multiplies the lightened ground: black text
stays black. Light detail keeps its ink's ratio to its ground's: light text on a dark fill stays light on the
lightened fill. Where the dark detail alone holds more ink than the coverage (dense black lettering), it is
lightened to the coverage, and the ground then left white.

The coverage of the squares is reckoned in cells of CELL px, each square AREA_CELLS cells a side (9.8 mm at
300 DPI): the squares are those of the cells' grid. Pillow alone does it (ImageChops and ImageMath on whole
images, the square's maxima and sums by doubling shifts): bench/draft.py times it.
"""

from __future__ import annotations

import math

from PIL import Image, ImageChops, ImageFilter, ImageMath, ImageOps

from .draw import mm_to_px

DETAIL_MM = 1.0  # a dark stroke thinner than this is detail, kept dark
CONTEXT_MM = 3.0  # the surroundings that say whether a pixel's ground is light or dark
AREA_MM = 10.0  # the large area whose coverage is bounded: every square this wide
MAJORITY_MM = 12.0  # the surroundings whose commonest colour (their median) a stroke of that colour is ground in
MAJORITY_CLOSE = 40  # how near that colour (in each of R, G and B, 0-255) a stroke is to be ground
CELL = 4  # px a side of the cells the squares' coverage is reckoned in
AREA_CELLS = int(mm_to_px(AREA_MM) // CELL)  # 29 cells, 116 px


def lightened(image: Image.Image, coverage: float) -> Image.Image:
    """The RGB face `image` with no square of AREA_MM holding more than `coverage` (0 to 1) of ink."""
    v = image.convert("RGB")
    ground = _ground(v)
    ink = ImageOps.invert(ground.convert("L", (1 / 3, 1 / 3, 1 / 3, 0)))
    tone = ink.point([255] + [round(255 * coverage * math.tanh(i / 255 / coverage) / (i / 255))
                              for i in range(1, 256)])
    bands = [(p.convert("F"), g.convert("F")) for p, g in zip(v.split(), ground.split())]
    tone = tone.convert("F")
    # per band: r, the dark detail's ratio to its ground; q, the light detail's ink to its ground's
    ratios = [ImageMath.lambda_eval(lambda a: a["min"]((a["p"] + 1) / (a["g"] + 1), 1), p=p, g=g) for p, g in bands]
    lights = [ImageMath.lambda_eval(lambda a: a["min"]((256 - a["p"]) / (256 - a["g"]), 1), p=p, g=g)
              for p, g in bands]
    fills = [ImageMath.lambda_eval(lambda a: a["s"] * (255 - a["g"]) * a["q"] / 65025, s=tone, g=g, q=q)
             for (_, g), q in zip(bands, lights)]
    detail = _mean(ImageMath.lambda_eval(lambda a: 3 - a["x"] - a["y"] - a["z"], x=ratios[0], y=ratios[1],
                                         z=ratios[2]))
    fill = _mean(ImageMath.lambda_eval(lambda a: a["x"] + a["y"] + a["z"], x=fills[0], y=fills[1], z=fills[2]))
    under = _mean(ImageMath.lambda_eval(
        lambda a: a["f"] * a["r"] + a["g"] * a["s"] + a["h"] * a["t"],
        f=fills[0], g=fills[1], h=fills[2], r=ratios[0], s=ratios[1], t=ratios[2]))
    most = detail.getextrema()[1] / 3
    scale = min(1.0, coverage / most) if most > 0 else 1.0  # the detail's
    # a square's ink, over its 3 bands: scale * detail + k * (fill - scale * (fill - under))
    room = ImageMath.lambda_eval(
        lambda a: (3 * coverage - scale * a["d"]) / a["max"](a["f"] - scale * (a["f"] - a["u"]), 1e-9),
        d=detail, f=fill, u=under)
    k = max(0.0, min(1.0, room.getextrema()[0]))
    out = [ImageMath.lambda_eval(
        lambda a: 255 * (scale * (1 - a["r"]) + k * a["f"] * (1 - scale * (1 - a["r"]))), r=r, f=f)
        for r, f in zip(ratios, fills)]
    return ImageOps.invert(Image.merge("RGB", [band.convert("L") for band in out]))


def _ground(image: Image.Image) -> Image.Image:
    """The ground of the RGB `image`: every stroke thinner than DETAIL_MM, dark or light, filled in with the
    ground around it; where the surroundings (CONTEXT_MM) are light, the dark strokes first (closing, then
    opening), where dark, the light ones; and a stroke of its surroundings' commonest colour is ground (so the
    dark gaps between light letters are ground, not detail)."""
    size = round(mm_to_px(DETAIL_MM)) | 1
    closing = _erode(_dilate(image, size), size)
    opening = _dilate(_erode(image, size), size)
    on_light = _dilate(_erode(closing, size), size)
    on_dark = _erode(_dilate(opening, size), size)
    step = round(mm_to_px(CONTEXT_MM) / 5)
    light = image.convert("L").reduce(step).filter(ImageFilter.BoxBlur(2)).resize(image.size, Image.Resampling.BILINEAR)
    ground = Image.composite(on_light, on_dark, light.point(lambda x: 255 if x >= 128 else 0))
    # a thin stroke of the colour most of its surroundings have is the fill showing through (between and
    # inside light letters on a dark fill), not detail over it: ground, lightened as the fill is
    mm = round(mm_to_px(1.0))  # the median reckoned on cells of 1 mm
    most = image.reduce(mm).filter(ImageFilter.MedianFilter(round(MAJORITY_MM) | 1)).resize(
        image.size, Image.Resampling.BILINEAR)
    apart = ImageChops.difference(image, most).split()
    far = ImageChops.lighter(ImageChops.lighter(apart[0], apart[1]), apart[2])
    return Image.composite(image, ground, far.point(lambda x: 255 if x < MAJORITY_CLOSE else 0))


def _mean(image: Image.Image) -> Image.Image:
    """The mean of `image` (mode F) over each square of AREA_CELLS cells lying inside it, a cell apart."""
    cells = image.reduce(CELL)
    n = AREA_CELLS
    for axis in (0, 1):
        done = 1
        while done < n:
            step = min(done, n - done)
            cells = ImageMath.lambda_eval(lambda a: a["x"] + a["y"], x=cells, y=_shifted(cells, step, axis))
            done += step
    w, h = cells.size
    return ImageMath.lambda_eval(lambda a: a["x"] / (n * n), x=cells.crop((0, 0, max(1, w - n + 1),
                                                                           max(1, h - n + 1))))


def _shifted(image: Image.Image, step: int, axis: int) -> Image.Image:
    """`image` moved `step` px towards its origin along `axis` (0: x), 0 coming in at the far side."""
    w, h = image.size
    return image.crop((step, 0, w + step, h) if axis == 0 else (0, step, w, h + step))


def _dilate(image: Image.Image, size: int) -> Image.Image:
    """Each band's greatest value over the square of `size` (odd) px about each pixel (within the image)."""
    half = size // 2
    for axis in (0, 1):
        w, h = image.size
        run = image.crop((-half, 0, w + half, h) if axis == 0 else (0, -half, w, h + half))  # 0 around
        done = 1
        while done < size:
            step = min(done, size - done)
            run = ImageChops.lighter(run, _shifted(run, step, axis))
            done += step
        image = run.crop((0, 0, w, h))
    return image


def _erode(image: Image.Image, size: int) -> Image.Image:
    """Each band's least value over the square of `size` (odd) px about each pixel."""
    return ImageOps.invert(_dilate(ImageOps.invert(image), size))
