"""Print-shop files: a finished PDF rewritten as PDF/X-4, its colours in CMYK.

``--print-shop`` (and ``print_shop: true`` in an event file) passes every PDF a build
writes through ``convert``:

* every colour the pages set is converted to CMYK through the output profile
  (``cmykprofile``): black and greys (text, rules, line art) to black ink alone,
  ``0 0 0 1 k`` rather than an RGB ``0 0 0 rg`` a RIP would print in four inks;
* every RGB image is converted through the same profile by LittleCMS (Pillow);
* the file declares its printing condition: an output intent (``GTS_PDFX``) that
  embeds the profile, XMP metadata naming the PDF/X version with document and
  instance ids, ``Trapped`` false, and one PDF version (1.6) in its header.

Page boxes, embedded fonts and unique subset names are every file's already
(``generator.core.printboxes``). The output is deterministic: the same input gives the
same bytes (its ids are hashes of the input).
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import re
import zlib
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    StreamObject,
    TextStringObject,
)

from generator.pages import cmykprofile

VERSION = b"%PDF-1.6"
"""The header of a print-shop file (PDF/X-4 builds on PDF 1.6)."""
DATE = "2000-01-01T00:00:00+00:00"
"""The fixed creation date every build writes (ReportLab's invariant mode), as XMP."""

_NUMBER = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
_COLOUR = re.compile(
    rb"(?<![\w.+-])(" + _NUMBER + rb")\s+(" + _NUMBER + rb")\s+(" + _NUMBER
    + rb")\s+(rg|RG)(?![\w])"
    rb"|(?<![\w.+-])(" + _NUMBER + rb")\s+(g|G)(?![\w])")
"""An RGB (``r g b rg``/``RG``) or grey (``v g``/``G``) colour operator and its operands."""


def cmyk_operands(rgb: tuple[float, float, float]) -> bytes:
    """The four ink values of an sRGB colour as PDF operands (``0 0 0 1`` for black)."""
    return b" ".join(_num(v) for v in cmykprofile.to_cmyk(rgb))


def _num(v: float) -> bytes:
    text = f"{round(v, 4):.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("", "-0") else "0").encode()


def _recolour_match(match: re.Match[bytes]) -> bytes:
    if match.group(4):
        rgb = (float(match.group(1)), float(match.group(2)), float(match.group(3)))
        op = b"k" if match.group(4) == b"rg" else b"K"
    else:
        grey = float(match.group(5))
        rgb = (grey, grey, grey)
        op = b"k" if match.group(6) == b"g" else b"K"
    return cmyk_operands(rgb) + b" " + op


def recolour(content: bytes) -> bytes:
    """A content stream with every RGB and grey colour operator set in CMYK instead.

    Strings (text drawn, which may hold any byte) and inline images are copied as they
    are: only the operators between them are rewritten.
    """
    out, start = [], 0
    for begin, end in _literals(content):
        out.append(_COLOUR.sub(_recolour_match, content[start:begin]))
        out.append(content[begin:end])
        start = end
    out.append(_COLOUR.sub(_recolour_match, content[start:]))
    return b"".join(out)


_SPECIAL = re.compile(rb"[(<%]|(?<=[ \r\n\t])ID(?=[ \r\n\t])")
"""What may start a string, a hex string, a comment or an inline image's data."""


def _literals(content: bytes) -> list[tuple[int, int]]:
    """Where the content's strings, hex strings and inline image data lie (begin, end)."""
    spans: list[tuple[int, int]] = []
    n = len(content)
    found = _SPECIAL.search(content)
    while found is not None:
        i = found.start()
        ch = content[i]
        if ch == 0x28:  # "(": a string, its brackets balanced, backslash escapes
            depth, j = 1, i + 1
            while j < n and depth:
                c = content[j]
                if c == 0x5C:
                    j += 1
                elif c == 0x28:
                    depth += 1
                elif c == 0x29:
                    depth -= 1
                j += 1
            spans.append((i, j))
            end = j
        elif ch == 0x3C and content[i + 1:i + 2] == b"<":  # "<<": an inline image's dict
            end = i + 2
        elif ch == 0x3C:  # "<": a hex string
            j = content.find(b">", i)
            end = n if j < 0 else j + 1
            spans.append((i, end))
        elif ch == 0x25:  # "%": a comment, to the end of its line
            j = content.find(b"\n", i)
            end = n if j < 0 else j
            spans.append((i, end))
        else:  # ID: an inline image's data, up to its EI
            j = content.find(b"EI", i + 3)
            end = n if j < 0 else j + 2
            spans.append((i, end))
        found = _SPECIAL.search(content, end)
    return spans


@functools.cache
def _transform() -> Any:
    """LittleCMS's transform from sRGB to the output profile (made once a process)."""
    from PIL import ImageCms

    target = ImageCms.ImageCmsProfile(io.BytesIO(cmykprofile.profile()))
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), target, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


def _put(stream: StreamObject, data: bytes) -> None:
    """Replace a stream's data with ``data``, deflated."""
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    if "/DecodeParms" in stream:
        del stream["/DecodeParms"]
    stream._data = zlib.compress(data, 6)
    stream[NameObject("/Length")] = NumberObject(len(stream._data))
    if hasattr(stream, "decoded_self"):
        stream.decoded_self = None


def _image(stream: StreamObject) -> None:
    """An RGB image converted to CMYK through the profile (other images are left)."""
    if stream.get("/ColorSpace") != "/DeviceRGB":
        return
    from PIL import Image, ImageCms

    size = (int(stream["/Width"]), int(stream["/Height"]))  # type: ignore[call-overload]
    filters = stream.get("/Filter")
    if filters == "/DCTDecode" or (isinstance(filters, list) and "/DCTDecode" in filters):
        picture = Image.open(io.BytesIO(stream._data)).convert("RGB")
    else:
        picture = Image.frombytes("RGB", size, stream.get_data())
    cmyk = ImageCms.applyTransform(picture, _transform())
    assert cmyk is not None
    stream[NameObject("/ColorSpace")] = NameObject("/DeviceCMYK")
    if "/Decode" in stream:
        del stream["/Decode"]
    _put(stream, cmyk.tobytes())


def _resources(resources: Any, seen: set[int]) -> None:
    """Convert the forms and images a resource dictionary names (each object once)."""
    if not resources:
        return
    xobjects = resources.get_object().get("/XObject")
    if not xobjects:
        return
    for ref in xobjects.get_object().values():
        key = getattr(ref, "idnum", None)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Image":
            _image(obj)
        elif obj.get("/Subtype") == "/Form":
            _put(obj, recolour(obj.get_data()))
            _resources(obj.get("/Resources"), seen)


def _contents(page: Any, seen: set[int]) -> None:
    """Recolour a page's content streams (a stream two pages share, once)."""
    contents = page.get("/Contents")
    if contents is None:
        return
    parts = contents.get_object()
    for part in parts if isinstance(parts, ArrayObject) else [contents]:
        key = getattr(part, "idnum", None)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        stream = part.get_object()
        _put(stream, recolour(stream.get_data()))


def xmp(title: str, document_id: str) -> bytes:
    """The XMP metadata packet of a print-shop file."""
    safe = (title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{safe}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>quarterdeck</rdf:li></rdf:Seq></dc:creator>
   <xmp:CreateDate>{DATE}</xmp:CreateDate>
   <xmp:ModifyDate>{DATE}</xmp:ModifyDate>
   <xmp:MetadataDate>{DATE}</xmp:MetadataDate>
   <xmp:CreatorTool>quarterdeck</xmp:CreatorTool>
   <xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdf:Producer>quarterdeck</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>""".encode()


def uuid_of(data: bytes) -> str:
    """A version-4-shaped UUID from a digest of ``data`` (the same data, the same id)."""
    h = hashlib.sha256(data).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def output_intent(writer: PdfWriter) -> DictionaryObject:
    """The PDF/X output intent, its profile embedded as a stream of the writer's."""
    plain = DecodedStreamObject()
    plain.set_data(cmykprofile.profile())
    plain[NameObject("/N")] = NumberObject(4)
    profile = plain.flate_encode()
    return DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(cmykprofile.CONDITION),
        NameObject("/OutputCondition"): TextStringObject(cmykprofile.DESCRIPTION),
        NameObject("/Info"): TextStringObject(cmykprofile.DESCRIPTION),
        NameObject("/RegistryName"): TextStringObject(""),
        NameObject("/DestOutputProfile"): writer._add_object(profile),
    })


def raw_objects(new: Any, write: Any, title: str, document_id: str) -> tuple[bytes, bytes]:
    """The print-shop objects of a file written by hand (``pdfstream``).

    ``new()`` gives an object number, ``write(number, body)`` writes the object. Returns
    what the catalog and the document information dictionary add.
    """
    profile = zlib.compress(cmykprofile.profile(), 6)
    number = new()
    write(number, f"<</N 4 /Filter /FlateDecode /Length {len(profile)}>>\nstream\n".encode()
          + profile + b"\nendstream")
    packet = xmp(title, document_id)
    meta = new()
    write(meta, f"<</Type /Metadata /Subtype /XML /Length {len(packet)}>>\nstream\n".encode()
          + packet + b"\nendstream")
    condition = _pdf_string(cmykprofile.CONDITION)
    info = _pdf_string(cmykprofile.DESCRIPTION)
    catalog = (f" /Metadata {meta} 0 R /OutputIntents [<</Type /OutputIntent /S /GTS_PDFX"
               f" /OutputConditionIdentifier {condition} /OutputCondition {info}"
               f" /Info {info} /RegistryName () /DestOutputProfile {number} 0 R>>]").encode()
    return catalog, (f" /Title {_pdf_string(title)} /Trapped /False"
                     " /CreationDate (D:20000101000000+00'00')"
                     " /ModDate (D:20000101000000+00'00')").encode()


def _pdf_string(text: str) -> str:
    """A PDF text string: plain ASCII as a literal, other text in UTF-16 (hex)."""
    if text.isascii() and text.isprintable():
        return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"
    return "<" + ("\ufeff" + text).encode("utf-16-be").hex().upper() + ">"


def convert(pdf: bytes, title: str | None = None) -> bytes:
    """A finished PDF as a PDF/X-4 file in CMYK (see the module).

    PDF/X asks for a title: ``title``, else the file's own, else ``quarterdeck``.
    """
    reader = PdfReader(io.BytesIO(pdf))
    # pypdf counts the objects it copies against the source's trailer and warns on the
    # terminal when the copy holds more (it writes its own, consistent, trailer): the
    # warning says nothing to a user.
    quiet = logging.getLogger("pypdf._writer")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        writer = PdfWriter(clone_from=reader)
    finally:
        quiet.setLevel(level)
    seen: set[int] = set()
    page: Any
    for page in writer.pages:
        _contents(page, seen)
        _resources(page.get("/Resources"), seen)
        if "/Group" in page and page["/Group"].get_object().get("/CS") == "/DeviceRGB":
            page["/Group"].get_object()[NameObject("/CS")] = NameObject("/DeviceCMYK")
    ident = uuid_of(pdf)
    found: Any = reader.metadata or {}
    title = title or str(found.get("/Title", "") or "") or "quarterdeck"
    metadata = DecodedStreamObject()
    metadata.set_data(xmp(title, ident))
    metadata[NameObject("/Type")] = NameObject("/Metadata")
    metadata[NameObject("/Subtype")] = NameObject("/XML")
    root = writer._root_object
    root[NameObject("/Metadata")] = writer._add_object(metadata)
    root[NameObject("/OutputIntents")] = ArrayObject([output_intent(writer)])
    if "/Version" in root:
        del root["/Version"]
    info = {"/Title": title, "/Creator": "quarterdeck", "/Producer": "quarterdeck",
            "/CreationDate": "D:20000101000000+00'00'", "/ModDate": "D:20000101000000+00'00'"}
    writer.metadata = None
    writer.add_metadata(info)
    info_dict: Any = writer._info.get_object()  # type: ignore[union-attr]
    info_dict[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = VERSION
    digest = hashlib.sha256(pdf).digest()[:16]
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
