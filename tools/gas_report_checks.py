#!/usr/bin/env python3
"""Independent checks of `carchain gas-report` outputs, for Tests/CarchainCLITests/GasReportCICLITests.swift.

    gas_report_checks.py schema SCHEMA.json   < document.json   validates with jsonschema (Draft 2020-12)
    gas_report_checks.py markdown             < text.md         renders with Python-Markdown (tables)
    gas_report_checks.py png FILE.png                           decodes the PNG (zlib, stdlib only)

Each prints one JSON object on stdout:
    schema   -> {"valid": bool, "errors": ["path: message", ...]}
    markdown -> {"tables": [{"header": [...], "rows": [[...], ...]}, ...]}
    png      -> {"width": W, "height": H, "pixels": N, "nonWhite": N, "colours": N}
"""

import json
import struct
import sys
import zlib
from html.parser import HTMLParser


def check_schema(schema_path):
    import jsonschema

    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    document = json.load(sys.stdin)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [
        "/".join(str(p) for p in error.absolute_path) + ": " + error.message
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    ]
    return {"valid": not errors, "errors": errors[:20]}


class TableCollector(HTMLParser):
    """Collects the cells of every <table> in rendered HTML."""

    def __init__(self):
        super().__init__()
        self.tables = []
        self.row = None
        self.cell = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"header": [], "rows": []})
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            table = self.tables[-1]
            if not table["header"] and not table["rows"]:
                table["header"] = self.row
            else:
                table["rows"].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def check_markdown():
    import markdown

    html = markdown.markdown(sys.stdin.read(), extensions=["tables"])
    collector = TableCollector()
    collector.feed(html)
    return {"tables": collector.tables}


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def check_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour type {colour_type}, interlace {interlace})")
    channels = 4 if colour_type == 6 else 3
    stride = width * channels
    raw = zlib.decompress(idat)
    previous = bytearray(stride)
    non_white, colours = 0, set()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + paeth(left, up, upper_left)) & 0xFF
        for x in range(width):
            pixel = tuple(line[x * channels:x * channels + 3])
            alpha = line[x * channels + 3] if channels == 4 else 255
            if alpha > 0 and pixel != (255, 255, 255):
                non_white += 1
                colours.add(pixel)
        previous = line
    return {"width": width, "height": height, "pixels": width * height, "nonWhite": non_white, "colours": len(colours)}


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    command = sys.argv[1]
    if command == "schema" and len(sys.argv) == 3:
        result = check_schema(sys.argv[2])
    elif command == "markdown":
        result = check_markdown()
    elif command == "png" and len(sys.argv) == 3:
        result = check_png(sys.argv[2])
    else:
        raise SystemExit(__doc__)
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
