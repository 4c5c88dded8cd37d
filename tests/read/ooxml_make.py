"""Small Office files written by hand (zip + XML), for the reader's tests:
the constructs other tools write that quire's own writers do not. Nothing
here is copied from another project; each part is the least the format
needs."""
import zipfile

CT = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def _rels(items):
    body = "".join('<Relationship Id="%s" Type="%s/%s" Target="%s"%s/>'
                   % (i, R, t, tg, ' TargetMode="External"' if ext else "")
                   for i, t, tg, ext in items)
    return CT + '<Relationships xmlns="%s">%s</Relationships>' % (PKG, body)


def _types(overrides):
    o = "".join('<Override PartName="/%s" ContentType="%s"/>' % (p, t) for p, t in overrides)
    return (CT + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>%s'
            '</Types>' % o)


def write_zip(path, parts):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts:
            z.writestr(name, data)


SS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def xlsx(path, sheet_xml, shared=None, styles=None, date1904=False, extra=()):
    """One sheet whose <sheetData> inner XML is sheet_xml (or a whole
    worksheet when it starts with '<worksheet')."""
    parts = []
    ws = sheet_xml if sheet_xml.startswith("<worksheet") else (
        '<worksheet xmlns="%s"><sheetData>%s</sheetData></worksheet>' % (SS, sheet_xml))
    rels = [("rId1", "worksheet", "worksheets/sheet1.xml", False)]
    if shared is not None:
        sst = "".join("<si><t xml:space=\"preserve\">%s</t></si>" % s for s in shared)
        parts.append(("xl/sharedStrings.xml", CT + '<sst xmlns="%s">%s</sst>' % (SS, sst)))
        rels.append(("rId2", "sharedStrings", "sharedStrings.xml", False))
    if styles is not None:
        parts.append(("xl/styles.xml", CT + styles))
        rels.append(("rId3", "styles", "styles.xml", False))
    parts += [
        ("[Content_Types].xml", _types([("xl/workbook.xml", "application/vnd.openxmlformats-"
                                         "officedocument.spreadsheetml.sheet.main+xml")])),
        ("_rels/.rels", _rels([("rId1", "officeDocument", "xl/workbook.xml", False)])),
        ("xl/workbook.xml", CT + '<workbook xmlns="%s" xmlns:r="%s">%s<sheets><sheet name="S" '
         'sheetId="1" r:id="rId1"/></sheets></workbook>'
         % (SS, R, '<workbookPr date1904="1"/>' if date1904 else "")),
        ("xl/_rels/workbook.xml.rels", _rels(rels)),
        ("xl/worksheets/sheet1.xml", CT + ws),
    ] + list(extra)
    write_zip(path, parts)


W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def docx(path, body, extra=(), rels=(), types=()):
    """A document whose <w:body> inner XML is body."""
    write_zip(path, [
        ("[Content_Types].xml", _types([("word/document.xml", "application/vnd.openxmlformats-"
                                         "officedocument.wordprocessingml.document.main+xml")]
                                       + list(types))),
        ("_rels/.rels", _rels([("rId1", "officeDocument", "word/document.xml", False)])),
        ("word/document.xml", CT + '<w:document xmlns:w="%s" xmlns:r="%s"><w:body>%s</w:body>'
         '</w:document>' % (W, R, body)),
        ("word/_rels/document.xml.rels", _rels(list(rels))),
    ] + list(extra))


P = "http://schemas.openxmlformats.org/presentationml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def pptx(path, slides, extra=(), slide_rels=None):
    """Slides given as the inner XML of each slide's <p:spTree>."""
    ids = "".join('<p:sldId id="%d" r:id="rId%d"/>' % (256 + i, i + 1)
                  for i in range(len(slides)))
    parts = [
        ("[Content_Types].xml", _types([("ppt/presentation.xml", "application/vnd.openxmlformats-"
                                         "officedocument.presentationml.presentation.main+xml")])),
        ("_rels/.rels", _rels([("rId1", "officeDocument", "ppt/presentation.xml", False)])),
        ("ppt/presentation.xml", CT + '<p:presentation xmlns:p="%s" xmlns:r="%s"><p:sldIdLst>%s'
         '</p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/></p:presentation>' % (P, R, ids)),
        ("ppt/_rels/presentation.xml.rels",
         _rels([("rId%d" % (i + 1), "slide", "slides/slide%d.xml" % (i + 1), False)
                for i in range(len(slides))])),
    ]
    for i, tree in enumerate(slides):
        parts.append(("ppt/slides/slide%d.xml" % (i + 1), CT +
                      '<p:sld xmlns:p="%s" xmlns:a="%s" xmlns:r="%s"><p:cSld><p:spTree>%s'
                      '</p:spTree></p:cSld></p:sld>' % (P, A, R, tree)))
        if slide_rels and slide_rels.get(i):
            parts.append(("ppt/slides/_rels/slide%d.xml.rels" % (i + 1),
                          _rels(slide_rels[i])))
    write_zip(path, parts + list(extra))


def sp(name, paras, ph=None):
    """A text shape: paras are strings (one run each)."""
    php = '<p:nvPr><p:ph type="%s"/></p:nvPr>' % ph if ph else "<p:nvPr/>"
    body = "".join("<a:p><a:r><a:t>%s</a:t></a:r></a:p>" % t if t else "<a:p/>" for t in paras)
    return ('<p:sp><p:nvSpPr><p:cNvPr id="2" name="%s"/><p:cNvSpPr/>%s</p:nvSpPr><p:spPr/>'
            '<p:txBody><a:bodyPr/>%s</p:txBody></p:sp>' % (name, php, body))
