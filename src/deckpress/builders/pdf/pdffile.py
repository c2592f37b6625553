"""A PDF file as reportlab writes it, read as bytes, and written again with some of its objects replaced.

reportlab's public API has no way to store an image as it is (its drawImage decodes a PNG and deflates it
again) nor to name the font subsets (canvas.py); so deckpress writes those objects itself into the file
reportlab has made (canvas.save), and writes a changed face's image into the previous build's file the same
way (steps.printed): the same bytes as a clean build, without reportlab. pikepdf could replace objects too,
but it lays the file out anew, and importing it would make the one-card edit slower (bench/README.md).

reportlab writes PDF's plainest layout (ISO 32000-1, 7.5): the header, objects 1 to N - 1 in order, the
cross-reference table (one section, 0 to N - 1), the trailer, startxref. Each object is here the bytes from
its offset to the next object's (to the table's, for the last). `Layout.read` refuses any other layout.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

END = re.compile(rb"startxref\n(\d+)\n%%EOF\n\Z")
TABLE = re.compile(rb"xref\n0 (\d+)\n0000000000 65535 f \n")
ENTRY = b"%010d 00000 n \n"  # an object in use, generation 0 (ISO 32000-1, 7.5.4)

# An object written anew: its number in, its bytes (from "N 0 obj" to "endobj" and its end of line) out, in pieces.
Writer = Callable[[int], Sequence[bytes]]


class Layout:
    """The objects of a PDF file laid out as reportlab lays them out (see the module's docstring)."""

    def __init__(self, data: bytes, bounds: list[int], trailer: int, end: int):
        self.data = data
        self.bounds = bounds  # object n from bounds[n - 1] to bounds[n]; the last bound is the table's offset
        self.trailer, self.end = trailer, end  # where the trailer and startxref begin

    @classmethod
    def read(cls, data: bytes) -> Layout | None:
        """The layout of `data`, or None when it is not laid out so."""
        end = END.search(data)
        head = TABLE.match(data, int(end[1])) if end else None
        if head is None:
            return None
        count = int(head[1])
        trailer = head.end() + 20 * (count - 1)
        table = data[head.end():trailer]
        try:
            bounds = [int(table[at:at + 10]) for at in range(0, len(table), 20)] + [int(end[1])]
        except ValueError:
            return None
        if (len(bounds) != count or table != b"".join(ENTRY % offset for offset in bounds[:-1])
                or not data.startswith(b"trailer\n", trailer)
                or any(not data.startswith(b"%d 0 obj\n" % n, bounds[n - 1]) or bounds[n - 1] >= bounds[n]
                       for n in range(1, count))):
            return None
        return cls(data, bounds, trailer, end.start())

    @property
    def count(self) -> int:
        """Objects 1 to count - 1."""
        return len(self.bounds)

    def object(self, n: int) -> bytes:
        return self.data[self.bounds[n - 1]:self.bounds[n]]

    def find(self, pattern: re.Pattern) -> Iterator[tuple[int, re.Match]]:
        """Each match of `pattern` inside an object, with the object's number."""
        for match in pattern.finditer(self.data, self.bounds[0], self.bounds[-1]):
            yield bisect_right(self.bounds, match.start()), match

    def write(self, target: Path, objects: dict[int, Writer]) -> None:
        """The file at `target`: this one with each object numbered as a key of `objects` written by its writer,
        the objects after it and the cross-reference table moved to match."""
        if not set(objects) <= set(range(1, self.count)):
            raise ValueError(f"no objects {sorted(set(objects) - set(range(1, self.count)))} in the file")
        view = memoryview(self.data)
        offsets, shift, at = [], 0, 0
        with open(target, "wb") as file:
            for n in range(1, self.count):
                start = self.bounds[n - 1]
                offsets.append(start + shift)
                if n in objects:
                    file.write(view[at:start])
                    made = objects[n](n)
                    file.writelines(made)
                    at = self.bounds[n]
                    shift += sum(map(len, made)) - (at - start)
            file.write(view[at:self.bounds[-1]])
            file.write(b"xref\n0 %d\n0000000000 65535 f \n" % self.count)
            file.write(b"".join(ENTRY % offset for offset in offsets))
            file.write(view[self.trailer:self.end])
            file.write(b"startxref\n%d\n%%%%EOF\n" % (self.bounds[-1] + shift))
