"""PDF/X-1a:2003 for print shops (ISO 15930-4): the faces converted from sRGB to CMYK through an ICC output
profile with the total ink limited, and the file reportlab makes marked as PDF/X as canvas.save writes it
(pdffile.py): the OutputIntent with the profile added, the info's keys, a PDF 1.4 header, an id from the content.

deckpress ships one CMYK profile, data/icc/deckpress-fogra39-240.icc: built with ArgyllCMS's colprof from
the FOGRA39 characterization data (FOGRA39L.ti3 of Debian's icc-profiles-free, zlib licence) with a 240 %
total ink limit, DriveThruCards' maximum. Its source, command and licence: data/icc/README.md.
"""

from __future__ import annotations

import hashlib

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from PIL import Image, ImageCms, ImageMath

from ... import png
from ...paths import PACKAGE_DATA
from .pdffile import Layout, Writer, dictionary_object, stream_object, text_string

SHIPPED_PROFILE = PACKAGE_DATA / "icc" / "deckpress-fogra39-240.icc"
PDFX_VERSION = "PDF/X-1a:2003"
# PDF 1.4, then a comment of bytes above 127, which tells a program that moves the file that it is binary
# (ISO 32000-1, 7.5.2), in place of reportlab's "% ReportLab Generated PDF document".
HEADER = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
# reportlab's document info ends with /Trapped, its keys sorted; it writes /False unless told otherwise.
TRAPPED = b"/Trapped /False"
# The shipped profile characterizes the FOGRA39 printing condition, registered as such in the ICC's
# registry of characterization data; a user's profile is named by its own description.
FOGRA39 = ("FOGRA39", "Offset printing, ISO 12647-2:2004/Amd 1, coated paper (paper type 1 or 2), "
                      "240 % total ink", "http://www.color.org")


# The soft proof's warning: a face warns when more than GAMUT_SHARE of its pixels move by more than
# GAMUT_DELTA_E (CIE76 colour difference, Delta E*ab in CIELAB: about 2 is the least difference an eye sees
# side by side, 10 a shift anyone notices) between the screen (sRGB) and the print as the profile simulates it.
GAMUT_DELTA_E = 10
GAMUT_SHARE = 0.01


class NotCmyk(ValueError):
    """A file that is no ICC profile, or a profile that does not print CMYK."""


def read_profile(path: Path) -> ImageCms.ImageCmsProfile:
    """The ICC profile at `path`; NotCmyk unless it is an output (printer) profile of CMYK colour."""
    try:
        profile = ImageCms.ImageCmsProfile(str(path))
    except (OSError, ImageCms.PyCMSError):
        raise NotCmyk("is not an ICC profile") from None
    space = profile.profile.xcolor_space.strip()
    if space != "CMYK":
        raise NotCmyk(f"is an ICC profile of {space or 'unknown'} colour, not CMYK")
    if profile.profile.device_class != "prtr":
        raise NotCmyk(f"is a {profile.profile.device_class!r} ICC profile, not an output (printer) profile")
    return profile


@dataclass(frozen=True)
class Cmyk:
    """The conversion of a PDF's faces: sRGB to the CMYK of `profile` (an ICC file), perceptual intent
    (the shipped profile maps sRGB's gamut into the print's), then at most `ink_limit` per cent of total
    ink per pixel."""

    profile: Path
    ink_limit: float

    @cached_property
    def _transform(self) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), read_profile(self.profile), "RGB", "CMYK",
                                       ImageCms.Intent.PERCEPTUAL)

    def convert(self, image: Image.Image) -> Image.Image:
        """`image` (any mode; transparency over white) in CMYK, its total ink limited."""
        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            rgba = image.convert("RGBA")
            image = Image.new("RGBA", rgba.size, "white")
            image.alpha_composite(rgba)
        return limit_ink(self._transform.apply(image.convert("RGB")), self.ink_limit)

    @cached_property
    def _back(self) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildTransform(read_profile(self.profile), ImageCms.createProfile("sRGB"), "CMYK", "RGB",
                                       ImageCms.Intent.RELATIVE_COLORIMETRIC)

    def proof(self, image: Image.Image) -> Image.Image:
        """A soft proof: `image` as it will print (converted to the CMYK it is printed in, its ink
        limited), shown back in sRGB, the paper's white as the screen's."""
        return self._back.apply(self.convert(image))

    @cached_property
    def icc(self) -> bytes:
        return self.profile.read_bytes()

    @cached_property
    def icc_digest(self) -> str:
        """The profile's sha256, in the keys of what is made with the conversion."""
        return hashlib.sha256(self.icc).hexdigest()

    @cached_property
    def deflated_icc(self) -> bytes:
        """The profile deflated as the faces are (png.compress: 2 ms for the shipped one's 170 KB, where zlib's
        level 9 takes 28 for 0.3 % less), as every PDF of the conversion carries it."""
        return png.compress(self.icc)

    @property
    def condition(self) -> tuple[str, str, str]:
        """OutputConditionIdentifier, OutputCondition and RegistryName of the OutputIntent."""
        if self.profile == SHIPPED_PROFILE:
            return FOGRA39
        description = ImageCms.getProfileDescription(read_profile(self.profile)).strip()
        return "Custom", description or self.profile.name, ""


_LAB = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")


def gamut_shift(screen: Image.Image, printed: Image.Image) -> float:
    """The share of pixels whose colour moves by more than GAMUT_DELTA_E from `screen` to `printed` (both
    sRGB, the same size), measured on every 4th pixel each way."""
    one, two = (_LAB.apply(image.convert("RGB").reduce(4)).split() for image in (screen, printed))
    scale = 100 / 255  # Pillow's L runs 0-255 for 0-100; a and b are 128 + their value

    def far(m):
        dl, da, db = m["l1"] - m["l2"], m["a1"] - m["a2"], m["b1"] - m["b2"]
        return m["convert"](dl * dl * (scale * scale) + da * da + db * db > GAMUT_DELTA_E ** 2, "L")

    moved = ImageMath.lambda_eval(far, l1=one[0], a1=one[1], b1=one[2], l2=two[0], a2=two[1], b2=two[2])
    return moved.histogram()[1] / (moved.width * moved.height)


def limit_ink(image: Image.Image, percent: float) -> Image.Image:
    """The CMYK `image` with C + M + Y + K at most `percent` per cent (of 255 each) in every pixel: where a
    pixel has more, its cyan, magenta and yellow shrink in proportion (hue kept, black kept), rounded
    down. A profile built with the limit (as the shipped one) leaves only its interpolation's overshoot."""
    limit = int(percent * 255 / 100)
    c, m, y, k = image.split()

    def channel(a):  # min(x, x * (limit - k) / (c + m + y)): x itself wherever the total is within the limit
        return a["convert"](a["min"](a["x"], a["x"] * (limit - a["k"]) / a["max"](a["c"] + a["m"] + a["y"], 1)),
                            "L")

    return Image.merge("CMYK", [ImageMath.lambda_eval(channel, x=x, c=c, m=m, y=y, k=k) for x in (c, m, y)] + [k])


def cmyk_image(path: Path, cmyk: Cmyk) -> tuple[int, int, bytes]:
    """The face at `path` converted to CMYK (DeviceCMYK, 8 bits): its width, height and deflated data."""
    with Image.open(path) as image:
        return image.width, image.height, png.compress(cmyk.convert(image).tobytes())


def mark_pdfx(pdf: Layout, cmyk: Cmyk) -> tuple[dict[int, Writer], list[Writer]]:
    """The objects that make `pdf`, reportlab's file of a canvas made with pdfx (CMYK images only, no viewer
    preferences), a PDF/X-1a:2003 file, which canvas.save writes with HEADER: those written anew, by number (the
    Catalog with its /OutputIntents, the document info with /GTS_PDFXVersion beside reportlab's /Trapped /False),
    and those added after the last (the OutputIntent /GTS_PDFX and its /DestOutputProfile, the ICC profile).
    A file with objects added has its /ID from its content (pdffile.Layout.write): the same from build to build."""
    catalog, info = pdf.reference("Root"), pdf.reference("Info")
    intent, profile = pdf.count, pdf.count + 1
    catalog_entries, info_entries = pdf.entries(catalog), pdf.entries(info)
    if not info_entries.endswith(TRAPPED):
        raise RuntimeError("reportlab wrote a document info without /Trapped /False at its end (pdfx.py)")
    identifier, condition, registry = cmyk.condition
    intent_entries = b"/DestOutputProfile %d 0 R /Info %s /OutputCondition %s /OutputConditionIdentifier %s " \
                     b"/RegistryName %s /S /GTS_PDFX /Type /OutputIntent" % (
                         profile, text_string(condition), text_string(condition), text_string(identifier),
                         text_string(registry))
    objects: dict[int, Writer] = {
        catalog: lambda n: dictionary_object(n, b"/OutputIntents [ %d 0 R ] %s" % (intent, catalog_entries)),
        info: lambda n: dictionary_object(n, b"%s/GTS_PDFXVersion %s %s" % (
            info_entries[:-len(TRAPPED)], text_string(PDFX_VERSION), TRAPPED)),
    }
    added: list[Writer] = [lambda n: dictionary_object(n, intent_entries),
                           lambda n: stream_object(n, b"/Filter /FlateDecode /N 4", cmyk.deflated_icc)]
    return objects, added
