#!/usr/bin/env python3
"""Writes the fuzz seed corpus into fuzz/seeds/<target>/ (stdlib only).

Run from anywhere: `python3 fuzz/seeds/make_seeds.py`. The output is
committed; rerun it after changing this script. Seeds are small on purpose:
libFuzzer mutates them, so they only need to show each input's shape.

- path_normalize: one path per file.
- glob_match: glob line, folder line, then paths (see the target's doc).
- glob_any_length: a repeat count (two bytes, little-endian), a glob piece,
  a newline and a path.
- multi_edit: flags byte, then content, old, new... separated by 0x1E.
- apply_patch: the file's content, 0x1E, then a patch (with or without its
  envelope).
- office_to_text: tiny real .docx/.xlsx/.pptx zips (deflated, as Office
  writes them) and the same packages as `== part` text lists, which the
  target zips itself; and small shapes of issue #27's hostile files (an
  element with duplicated attributes, a zip of many end records).
- pdf_to_text: besides the copied PDFs (see fuzz/README.md), small files
  whose cross-reference section is damaged (a wrong startxref, no table or
  trailer, wrong offsets, a cut file, a trailer only in a cross-reference
  stream), so the reader's rebuilding of the table runs, and streams
  through chained and indirect filters (zlib with a PNG predictor).
"""

import os
import re
import zlib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"


def write(target, name, data):
    folder = os.path.join(HERE, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def rels(*items):
    body = "".join(
        f'<Relationship Id="{i}" Type="{REL}/{kind}" Target="{target}"/>'
        for i, kind, target in items
    )
    return f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG}">{body}</Relationships>'


def content_types(*overrides):
    body = "".join(f'<Override PartName="/{n}" ContentType="{t}"/>' for n, t in overrides)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{CT}">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Default Extension="xml" ContentType="application/xml"/>{body}</Types>'
    )


def docx():
    body = (
        '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Quarterly report</w:t></w:r></w:p>'
        '<w:p><w:r><w:t xml:space="preserve">Revenue grew </w:t></w:r><w:r><w:rPr><w:b/></w:rPr>'
        '<w:t>12%</w:t></w:r><w:r><w:tab/><w:t>see note</w:t></w:r>'
        '<w:r><w:footnoteReference w:id="1"/></w:r></w:p>'
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        '<w:r><w:t>First item</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        '<w:r><w:t>Nested</w:t></w:r><w:r><w:br/><w:t>line two</w:t></w:r></w:p>'
        '<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>'
        '<w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc>'
        '<w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>Total</w:t></w:r></w:p></w:tc></w:tr>'
        '<w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>Sum</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'
        '<w:p><w:ins><w:r><w:t>inserted</w:t></w:r></w:ins><w:del><w:r><w:delText>gone</w:delText></w:r></w:del>'
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:sym w:char="F0E0"/></w:r></w:p>'
        '<w:sdt><w:sdtPr/><w:sdtContent><w:p><w:r><w:t>In a content control</w:t></w:r></w:p></w:sdtContent></w:sdt>'
    )
    document = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{W}" xmlns:r="{REL}"><w:body>{body}<w:sectPr/></w:body></w:document>'
    )
    styles = (
        f'<w:styles xmlns:w="{W}"><w:style w:type="paragraph" w:styleId="Heading1">'
        '<w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>'
        '<w:style w:type="paragraph" w:styleId="Sub"><w:basedOn w:val="Heading1"/></w:style></w:styles>'
    )
    numbering = (
        f'<w:numbering xmlns:w="{W}"><w:abstractNum w:abstractNumId="0">'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1.%2)"/></w:lvl>'
        '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/>'
        '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="3"/></w:lvlOverride></w:num></w:numbering>'
    )
    footnotes = (
        f'<w:footnotes xmlns:w="{W}"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t>Unaudited.</w:t></w:r></w:p></w:footnote></w:footnotes>'
    )
    return [
        ("[Content_Types].xml", content_types(
            ("word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"))),
        ("_rels/.rels", rels(("rId1", "officeDocument", "word/document.xml"))),
        ("word/document.xml", document),
        ("word/_rels/document.xml.rels", rels(
            ("rId1", "styles", "styles.xml"), ("rId2", "numbering", "numbering.xml"),
            ("rId3", "footnotes", "footnotes.xml"))),
        ("word/styles.xml", styles),
        ("word/numbering.xml", numbering),
        ("word/footnotes.xml", footnotes),
    ]


def xlsx():
    workbook = (
        f'<workbook xmlns="{S}" xmlns:r="{REL}"><workbookPr date1904="false"/><sheets>'
        '<sheet name="Sales" sheetId="1" r:id="rId1"/><sheet name="Hidden" sheetId="2" state="hidden" r:id="rId2"/>'
        '</sheets></workbook>'
    )
    sheet1 = (
        f'<worksheet xmlns="{S}"><sheetData>'
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Note</t></is></c></row>'
        '<row r="2"><c r="A2" s="1"><v>45567</v></c><c r="B2" s="2"><v>0.125</v></c><c r="D2" t="b"><v>1</v></c></row>'
        '<row r="4"><c r="A4" s="3"><v>45567.75</v></c><c r="B4"><f>SUM(B2:B3)</f><v>3.5</v></c>'
        '<c r="C4" t="str"><v>x_x000D_y</v></c><c r="E4" t="e"><v>#DIV/0!</v></c></row>'
        '</sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>'
    )
    sheet2 = f'<worksheet xmlns="{S}"><sheetData><row><c t="n"><v>-1.5E+3</v></c></row></sheetData></worksheet>'
    strings = f'<sst xmlns="{S}"><si><t>Date</t></si><si><r><t>Am</t></r><r><t>ount</t></r><rPh><t>x</t></rPh></si></sst>'
    styles = (
        f'<styleSheet xmlns="{S}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>'
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="10"/><xf numFmtId="164"/></cellXfs></styleSheet>'
    )
    return [
        ("[Content_Types].xml", content_types(
            ("xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"))),
        ("_rels/.rels", rels(("rId1", "officeDocument", "xl/workbook.xml"))),
        ("xl/workbook.xml", workbook),
        ("xl/_rels/workbook.xml.rels", rels(
            ("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "worksheet", "/xl/worksheets/sheet2.xml"),
            ("rId3", "sharedStrings", "sharedStrings.xml"), ("rId4", "styles", "styles.xml"))),
        ("xl/worksheets/sheet1.xml", sheet1),
        ("xl/worksheets/sheet2.xml", sheet2),
        ("xl/sharedStrings.xml", strings),
        ("xl/styles.xml", styles),
    ]


def pptx():
    ns = f'xmlns:a="{A}" xmlns:r="{REL}" xmlns:p="{P}"'
    presentation = (
        f'<p:presentation {ns}><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId1"/>'
        '</p:sldIdLst></p:presentation>'
    )
    title = (
        '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>'
        '<p:txBody><a:p><a:r><a:t>Roadmap</a:t></a:r></a:p></p:txBody></p:sp>'
    )
    bullets = (
        '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>'
        '<a:p><a:pPr><a:buAutoNum type="arabicPeriod"/></a:pPr><a:r><a:t>Ship</a:t></a:r></a:p>'
        '<a:p><a:pPr lvl="1"><a:buChar char="&#8226;"/></a:pPr><a:r><a:t>then</a:t></a:r><a:br/><a:r><a:t>rest</a:t></a:r></a:p>'
        '<a:p><a:pPr><a:buAutoNum type="alphaLcParenR" startAt="3"/></a:pPr><a:fld type="slidenum"><a:t>2</a:t></a:fld></a:p>'
        '</p:txBody></p:sp>'
    )
    table = (
        '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="T"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>'
        '<a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>Q1</a:t></a:r></a:p></a:txBody></a:tc>'
        '<a:tc gridSpan="2"><a:txBody><a:p><a:r><a:t>Q2</a:t></a:r></a:p></a:txBody></a:tc><a:tc hMerge="1"/></a:tr>'
        '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>'
    )
    group = f'<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>{title}</p:grpSp>'

    def slide(tree, extra=""):
        return f'<p:sld {ns}{extra}><p:cSld><p:spTree>{tree}</p:spTree></p:cSld></p:sld>'

    notes = (
        f'<p:notes {ns}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="N"/><p:cNvSpPr/>'
        '<p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>Say hello</a:t></a:r></a:p>'
        '</p:txBody></p:sp></p:spTree></p:cSld></p:notes>'
    )
    return [
        ("[Content_Types].xml", content_types(
            ("ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"))),
        ("_rels/.rels", rels(("rId1", "officeDocument", "ppt/presentation.xml"))),
        ("ppt/presentation.xml", presentation),
        ("ppt/_rels/presentation.xml.rels", rels(
            ("rId1", "slide", "slides/slide1.xml"), ("rId2", "slide", "slides/slide2.xml"))),
        ("ppt/slides/slide2.xml", slide(title + bullets)),
        ("ppt/slides/slide1.xml", slide(table + group, ' show="1"')),
        ("ppt/slides/_rels/slide2.xml.rels", rels(("rId9", "notesSlide", "../notesSlides/notesSlide2.xml"))),
        ("ppt/notesSlides/notesSlide2.xml", notes),
    ]


def office_seeds():
    for name, parts in (("docx", docx()), ("xlsx", xlsx()), ("pptx", pptx())):
        path = os.path.join(HERE, "office_to_text", f"tiny.{name}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for part, text in parts:
                # A fixed date keeps the committed bytes reproducible.
                info = zipfile.ZipInfo(part, date_time=(2025, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, text)
        listing = "".join(f"== {part}\n{text}\n" for part, text in parts)
        write("office_to_text", f"{name}.parts", listing)
    hostile_office_seeds()


def hostile_office_seeds():
    """Small shapes of issue #27's Office files, for the mutator to grow."""
    # Relationships whose one element holds many names and copies of the
    # last (quick-xml's duplicate check compared each copy with every name).
    names = " ".join(f'a{i}=""' for i in range(40))
    copies = ' a39=""' * 40
    rel = f'<Relationship {names}{copies} Id="rId1" Type="{REL}/styles" Target="styles.xml"/>'
    parts = [
        ("_rels/.rels", rels(("rId1", "officeDocument", "word/document.xml"))),
        ("word/document.xml", f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>'),
        ("word/_rels/document.xml.rels", f'<Relationships xmlns="{PKG}">{rel}</Relationships>'),
    ]
    write("office_to_text", "duplicate_attributes.parts", "".join(f"== {p}\n{t}\n" for p, t in parts))
    # A central directory of 20 entries and 50 end records that each claim
    # one entry more (the zip crate reparsed the directory for each record).
    cd = b""
    for i in range(20):
        name = f"p{i:02}.xml".encode()
        cd += (
            b"PK\x01\x02" + bytes([20, 0, 20, 0]) + bytes(20)
            + len(name).to_bytes(2, "little") + bytes(16) + name
        )
    record = (
        b"PK\x05\x06" + bytes(4) + (21).to_bytes(2, "little") * 2
        + len(cd).to_bytes(4, "little") + bytes(6)
    )
    write("office_to_text", "end_records.zip", cd + record * 50)


def path_seeds():
    paths = [
        "reports/q3.pdf", "./a//b/", "notes/.hidden/todo.md", "a/../b", "/etc/passwd",
        "dir\\file.txt", "caf\u00e9/na\u00efve \u2603.txt", ".", "a/./b/./c", "tab\there",
        "x" * 256, "deep/" * 20 + "leaf",
    ]
    for i, p in enumerate(paths):
        write("path_normalize", f"path{i:02}", p)


def glob_seeds():
    cases = [
        ("*.md", "", ["README.md", "docs/guide.md", "a.mdx"]),
        ("reports/**/*.{csv,tsv}", "", ["reports/q3.csv", "reports/2025/q4/x.tsv", "other/reports/q3.csv"]),
        ("2025/*.csv", "reports", ["reports/2025/q4.csv", "reports/2025/deep/q4.csv", "2025/q4.csv"]),
        ("/README.md", "", ["README.md", "docs/README.md"]),
        ("./docs/[a-c]?.m[!d]", "", ["docs/ab.mx", "docs/zz.md"]),
        ("**/\\*literal\\?", "x", ["x/y/*literal?", "x/*literal?"]),
        ("{a,b", "", ["a"]),
        ("**", "deep/er", ["deep/er/f", "f"]),
    ]
    for i, (glob, folder, paths) in enumerate(cases):
        write("glob_match", f"glob{i:02}", "\n".join([glob, folder] + paths))


def glob_length_seeds():
    cases = [
        (1, "*.md", "notes/a.md"),
        (4096, "*", "x"),
        (100, "{a,b}", "ab"),
        (2000, "**/", "a/b/c"),
        (65535, "[!/]", "q"),
        (700, "{*,?}", "zz"),
    ]
    for i, (times, piece, path) in enumerate(cases):
        data = times.to_bytes(2, "little") + f"{piece}\n{path}".encode("utf-8")
        write("glob_any_length", f"length{i:02}", data)


def edit_seeds():
    sep = b"\x1e"
    cases = [
        (0, [b"def full_name\nend\n", b"full_name", b"display", b"display", b"shown"]),
        (0, [b"a a a a", b"a", b"x"]),
        (1, [b"aaaa", b"aa", b"b"]),
        (1, [b"x x", b"x", b"xx"]),
        (0, [b"a\r\nb\r\nc\r\n", b"a\nb\n", b"x\ny\n"]),
        (0, [b"\xef\xbb\xbfline one\r\nbad \xff byte\r\nlast", b"one", b"1"]),
        (0, [b"one two", b"two", b"2", b"two", b"II"]),
        (0, [b"abc", b"", b"x"]),
        (2, [b"k=1\nk=1\nv=\x00\n", b"v=\x00", b"v=0", b"k=1", b"k=2"]),
    ]
    for i, (flags, fields) in enumerate(cases):
        write("multi_edit", f"edit{i:02}", bytes([flags]) + sep.join(fields))


def patch_seeds():
    sep = b"\x1e"
    user = b"class User\n  def full_name\n    name\n  end\n\n  def age\n    1\n  end\nend\n"
    cases = [
        (user, b"*** Begin Patch\n*** Update File: u.rb\n@@ def full_name\n-    name\n+    full\n"
               b"@@ def age\n-    1\n+    2\n*** End Patch\n"),
        (user, b"*** Update File: u.rb\n@@\n-  end\n+  end # ambiguous\n"),
        (user, b"*** Update File: u.rb\n@@ class User\n@@   def age\n     1\n-  end\n+  end\n+\n"),
        (b"a\r\nb\r\nc", b"*** Update File: w.txt\n@@\n a\n-b\n+B\n+B2\n"),
        (b"end\nmiddle\nend\n", b"*** Update File: e\n@@\n-end\n+fin\n*** End of File\n"),
        (b"say \xe2\x80\x9chi\xe2\x80\x9d\xc2\xa0now  \nbad \xff\n", b"*** Update File: t\n@@\n say \"hi\" now\n-bad \xef\xbf\xbd\n+ok\n"),
        (b"", b"*** Add File: n.txt\n+one\n+two\n*** Delete File: old\n*** Update File: a\n*** Move to: b\n"),
        (b"x\ny\n", b"<<'EOF'\n *** Begin Patch \n*** Update File: f\n-x\n+z\n\n@@\n y\n+w\n *** End Patch \nEOF\n"),
        (b"one\ntwo", b"*** Update File: f\n@@\n+appended\n"),
    ]
    for i, (content, text) in enumerate(cases):
        write("apply_patch", f"patch{i:02}", content + sep + text)


def pdf_objects(content, filters="", parms=""):
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< {filters}{parms}/Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 3 0 R >> >> >>",
    ]


def pdf_file(objects, trailer=b"<< /Size 6 /Root 1 0 R >>"):
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for o in offsets:
        out += f"{o:010} 00000 n \n".encode()
    out += b"trailer\n" + trailer + f"\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def png_up(data, columns):
    rows, previous = [], bytes(columns)
    for i in range(0, len(data), columns):
        row = data[i:i + columns].ljust(columns, b"\0")
        rows.append(b"\x02" + bytes((b - p) & 255 for b, p in zip(row, previous)))
        previous = row
    return b"".join(rows)


def pdf_seeds():
    text = b"BT /F1 12 Tf 72 720 Td (Recovered text on the page.) Tj ET\n"
    good = pdf_file(pdf_objects(text))
    write("pdf_to_text", "broken_startxref.pdf", re.sub(rb"startxref\n\d+", b"startxref\n12", good))
    write("pdf_to_text", "broken_no_trailer.pdf", good[: good.index(b"xref\n0 ")])
    shifted = re.sub(rb"(\d{10}) 00000 n", lambda m: b"%010d 00000 n" % (int(m.group(1)) + 7), good)
    write("pdf_to_text", "broken_offsets.pdf", shifted)
    write("pdf_to_text", "broken_cut.pdf", good[: good.index(b"Recovered") + 5])
    xref_stream = good[: good.index(b"xref\n0 ")] + (
        b"6 0 obj\n<< /Type /XRef /Size 7 /W [1 2 1] /Root 1 0 R /Length 3 >>\nstream\n\x00\x00\x00"
        b"\nendstream\nendobj\nstartxref\n999\n%%EOF\n"
    )
    write("pdf_to_text", "broken_xref_stream_trailer.pdf", xref_stream)
    # A /Length that misses its endstream (same digits, so no offset moves):
    # the wrong-length repair; and with the table's offsets wrong as well,
    # the repair and the rebuilt table together.
    short = good.replace(b"/Length %d >>" % len(text), b"/Length %d >>" % (len(text) // 2))
    write("pdf_to_text", "broken_length.pdf", short)
    write("pdf_to_text", "broken_length_offsets.pdf",
          re.sub(rb"(\d{10}) 00000 n", lambda m: b"%010d 00000 n" % (int(m.group(1)) + 7), short))
    # The font with its dictionary left open before its endobj: the repair
    # that writes it again, closed.
    write("pdf_to_text", "broken_unclosed.pdf",
          good.replace(b"/BaseFont /Helvetica >>", b"/BaseFont /Helvetica   "))
    # No /Size in the trailer, the catalog's header after a comment on its
    # line: only the table finds it.
    write("pdf_to_text", "broken_no_size.pdf",
          good.replace(b"%PDF-1.4\n1 0 obj", b"%PDF-1.4|1 0 obj").replace(b"/Size 6 ", b""))
    data = zlib.compress(png_up(text, 8)).hex().encode() + b">"
    objects = pdf_objects(data, "/Filter 6 0 R ", "/DecodeParms [null << /Predictor 12 /Columns 8 >>] ")
    objects.append(b"[/ASCIIHexDecode /FlateDecode]")
    write("pdf_to_text", "indirect_filter_predictor.pdf", pdf_file(objects, b"<< /Size 7 /Root 1 0 R >>"))



def objstm(members):
    """A deflated object stream holding members (number -> body)."""
    header, data = b"", b""
    for n, body in members.items():
        header += b"%d %d " % (n, len(data))
        data += body + b"\n"
    header += b"\n"
    packed = zlib.compress(header + data)
    return (b"<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
            % (len(members), len(header), len(packed)) + packed + b"\nendstream")


def work_seeds():
    """Issue 39's shapes, scaled down: one operator or widget doing work of
    its own (a list box, an OCMD expression, an /ActualText span, a combo
    box of many widgets, glyphs far out, integers past 64 bits)."""
    text = b"BT /F1 12 Tf 72 720 Td (Text on the page.) Tj ET\n"

    def page(content, page_extra=b"", resources=b"", catalog=b"", extra=(), members=None,
             box=b"0 0 612 792"):
        objects = pdf_objects(content)
        objects[0] = b"<< /Type /Catalog /Pages 2 0 R " + catalog + b">>"
        objects[4] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [" + box + b"] /Contents 4 0 R " + page_extra
                      + b"/Resources << /Font << /F1 3 0 R >> " + resources + b">> >>")
        objects += list(extra)
        if members:
            objects.append(objstm(members))
        return pdf_file(objects, b"<< /Size %d /Root 1 0 R >>" % (len(objects) + 1))

    form = b"/AcroForm << /Fields [6 0 R] /DA (/Helv 12 Tf) >> "
    write("pdf_to_text", "work_list_box.pdf", page(
        text, b"/Annots [6 0 R] ", catalog=form,
        extra=[b"<< /Type /Annot /Subtype /Widget /FT /Ch /T (l) /Rect [72 500 272 620] /TI 1 "
               b"/Opt [" + b"90 0 R " * 64 + b"[(x) 90 0 R]] >>"],
        members={90: b"(" + b"l" * 20000 + b")"}))
    write("pdf_to_text", "work_combo_box.pdf", page(
        text, b"/Annots [7 0 R 8 0 R 7 0 R] ", catalog=form,
        extra=[b"<< /FT /Ch /Ff 393216 /T (c) /Opt [" + b"[(a) 90 0 R] " * 32 + b"(b)] /V [(b) 90 0 R (z)] "
               b"/Kids [7 0 R 8 0 R] >>",
               b"<< /Type /Annot /Subtype /Widget /Parent 6 0 R /Rect [72 400 272 420] >>",
               b"<< /Type /Annot /Subtype /Widget /Parent 6 0 R /Rect [72 300 272 320] /V (own) >>"],
        members={90: b"(" + b"c" * 5000 + b"d)"}))
    write("pdf_to_text", "work_comb_field.pdf", page(
        text, b"/Annots [6 0 R] ", catalog=form,
        extra=[b"<< /Type /Annot /Subtype /Widget /FT /Tx /Ff 16777216 /MaxLen 99999 /T (t) "
               b"/Rect [72 400 272 420] /V 90 0 R >>"],
        members={90: b"(" + b"0123456789" * 500 + b")"}))
    write("pdf_to_text", "work_ocmd.pdf", page(
        b"/OC /oc1 BDC EMC " * 50 + b"/OC /oc1 BDC " + text + b"EMC\n",
        resources=b"/Properties << /oc1 7 0 R >> ",
        catalog=b"/OCProperties << /OCGs [6 0 R] /D << /OFF [6 0 R] >> >> ",
        extra=[b"<< /Type /OCG /Name (L) >>", b"<< /Type /OCMD /VE 90 0 R >>"],
        members={90: b"[/Or 6 0 R " + b"90 0 R " * 200 + b"]"}))
    write("pdf_to_text", "work_actual_text.pdf", page(
        b"/Span /P1 BDC EMC " * 50 + b"/Span /P1 BDC " + text + b"EMC "
        b"/Span << /ActualText (inline) >> BDC " + text + b"EMC\n",
        resources=b"/Properties << /P1 << /ActualText 90 0 R >> >> ",
        members={90: b"(" + b"t" * 20000 + b")"}))
    write("pdf_to_text", "work_far_glyphs.pdf", page(
        b"BT /F1 12 Tf 10000000000000000 Tc 100000000000000000000 700 Td (" + b"a" * 2000 + b") Tj ET\n",
        box=b"0 0 1000000000000000000000000000000.0 792"))
    write("pdf_to_text", "work_long_integers.pdf", page(
        text, b"/StructParents 99999999999999999999 ", box=b"0 0 10000000000000000000 792",
        members={90: b"<< /N -100000000000000000000 /S (12345678901234567890123) >>"}))

if __name__ == "__main__":
    pdf_seeds()
    work_seeds()
    path_seeds()
    glob_seeds()
    glob_length_seeds()
    edit_seeds()
    patch_seeds()
    office_seeds()
