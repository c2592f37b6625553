"""A PDF file as reportlab writes it, read as bytes, and written again with some of its objects replaced and
others added.

reportlab's public API has no way to store an image as it is (its drawImage decodes a PNG and deflates it
again), to name the font subsets (canvas.py) nor to write PDF/X's output intent (pdfx.py); so deckpress writes
those objects itself into the file reportlab has made (canvas.save), and writes a changed face's image into the
previous build's file the same way (steps.printed): the same bytes as a clean build, without reportlab. A PDF
library (pikepdf, pypdf) could do it too, but it lays the file out anew, and importing it would make the
one-card edit slower (bench/README.md).

reportlab writes PDF's plainest layout (ISO 32000-1, 7.5): the header, objects 1 to N - 1 in order, the
cross-reference table (one section, 0 to N - 1), the trailer, startxref. Each object is here the bytes from
its offset to the next object's (to the table's, for the last). `Layout.read` refuses any other layout, and
`Layout.write` writes the same layout, which it reads again.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

END = re.compile(rb"startxref\n(\d+)\n%%EOF\n\Z")
TABLE = re.compile(rb"xref\n0 (\d+)\n0000000000 65535 f \n")
ENTRY = b"%010d 00000 n \n"  # an object in use, generation 0 (ISO 32000-1, 7.5.4)
# An object that is a dictionary, as reportlab writes one: its entries between "<<" and ">>" on lines of their own.
DICTIONARY = re.compile(rb"\d+ 0 obj\n<<\n(.*)\n>>\nendobj\n\Z", re.S)

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

    def reference(self, key: str) -> int:
        """The number of the object the trailer's entry `key` (Root, Info) refers to."""
        found = re.compile(rb"/%s (\d+) 0 R\b" % key.encode()).search(self.data, self.trailer, self.end)
        if found is None:
            raise ValueError(f"the trailer has no /{key}")
        return int(found[1])

    def entries(self, n: int) -> bytes:
        """The entries of object `n`, a dictionary: the bytes between its << and >>."""
        found = DICTIONARY.match(self.object(n))
        if found is None:
            raise ValueError(f"object {n} is no dictionary as reportlab writes one")
        return found[1]

    def write(self, target: Path, objects: dict[int, Writer], added: Sequence[Writer] = (),
              header: bytes | None = None) -> None:
        """The file at `target`: this one with each object numbered as a key of `objects` written by its writer,
        the objects after it and the cross-reference table moved to match. With `added`, new objects after the
        last, numbered from `count` on, each written by its writer, and the trailer written anew: its /Size
        counting them, /Root and /Info as they were, and as /ID (ISO 32000-1, 14.4) twice the MD5 of the bytes
        before it, so that the same content has the same id. With `header`, that in place of the file's (the
        bytes before object 1)."""
        if not set(objects) <= set(range(1, self.count)):
            raise ValueError(f"no objects {sorted(set(objects) - set(range(1, self.count)))} in the file")
        view = memoryview(self.data)
        digest = hashlib.md5(usedforsecurity=False) if added else None
        kept = (self.reference("Info"), self.reference("Root")) if added else ()
        head = view[:self.bounds[0]] if header is None else header
        offsets, shift, at = [], len(head) - self.bounds[0], self.bounds[0]
        with open(target, "wb") as file:

            def put(*chunks: bytes) -> None:
                for chunk in chunks:
                    file.write(chunk)
                    if digest is not None:
                        digest.update(chunk)

            put(head)
            for n in range(1, self.count):
                start = self.bounds[n - 1]
                offsets.append(start + shift)
                if n in objects:
                    made = objects[n](n)
                    put(view[at:start], *made)
                    at = self.bounds[n]
                    shift += sum(map(len, made)) - (at - start)
            put(view[at:self.bounds[-1]])
            table = self.bounds[-1] + shift
            for n, writer in enumerate(added, self.count):
                offsets.append(table)
                made = writer(n)
                put(*made)
                table += sum(map(len, made))
            size = self.count + len(added)
            put(b"xref\n0 %d\n0000000000 65535 f \n" % size, b"".join(ENTRY % offset for offset in offsets))
            if digest is None:
                file.write(view[self.trailer:self.end])
            else:
                identifier = digest.hexdigest().encode()
                file.write(b"trailer\n<<\n/ID [<%s><%s>]\n/Info %d 0 R\n/Root %d 0 R\n/Size %d\n>>\n"
                           % (identifier, identifier, *kept, size))
            file.write(b"startxref\n%d\n%%%%EOF\n" % table)


def dictionary_object(n: int, entries: bytes) -> list[bytes]:
    """Object `n`, the dictionary of `entries`, laid out as reportlab writes one."""
    return [b"%d 0 obj\n<<\n" % n, entries, b"\n>>\nendobj\n"]


def stream_object(n: int, entries: bytes, data: bytes) -> list[bytes]:
    """Object `n`, a stream of `data` with the dictionary of `entries` and its /Length."""
    return [b"%d 0 obj\n<<\n%s /Length %d\n>>\nstream\n" % (n, entries, len(data)), data, b"\nendstream\nendobj\n"]


def text_string(text: str) -> bytes:
    """`text` as a PDF text string (ISO 32000-1, 7.9.2.2): a literal in printable ASCII, its backslashes and
    parentheses escaped, else UTF-16BE after its byte order mark, in hex."""
    if text.isascii() and text.isprintable():
        return b"(" + re.sub(rb"[\\()]", rb"\\\g<0>", text.encode()) + b")"
    return b"<feff" + text.encode("utf-16-be").hex().encode() + b">"
