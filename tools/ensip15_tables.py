#!/usr/bin/env python3
"""Generates Sources/EthereumContracts/ENS/ENSIP15Tables.swift: the normative data tables of ENSIP-15 (ENS name
normalisation) in a compact binary form, base64 in a Swift string literal.

Provenance: the two JSON files ENSIP-15 publishes (`spec.json`, here `normalization_spec.json`, and `nf.json`, the
Unicode normalisation tables at the same Unicode version), as web3.py ships them in `ens/specs/` (the venv's web3,
tools/requirements.txt). Only the data is taken: codepoint sets, mappings, emoji sequences, groups, whole-script
confusables, combining classes and decompositions. The algorithm is ours (Sources/EthereumContracts/ENS/ENSIP15.swift).

    python3 tools/ensip15_tables.py [--check] [SPECS_DIR]   # SPECS_DIR: web3's ens/specs by default
                                                            # --check: exit 1 if the committed file differs

Format (every integer an unsigned LEB128 varint; a *set* is its sorted codepoints as runs: the run count, then per
run the gap from the previous run's end and the run's length - 1; a *sequence* is its length then its codepoints;
a *string* is its UTF-8 length then its bytes):
  "ENS1", string created, string unicode,
  set ignored, set cm, set nsm, nsm_max, set escape,
  fenced: count, then (codepoint, string name) each,
  mapped: count, then (codepoint gap from the previous key, sequence) each,
  emoji: count, then a sequence each (fully qualified, with FE0F),
  groups: count, then (string name, flags: 1 restricted | 2 combining marks allowed, set primary, set secondary) each,
  wholes: count, then (set valid, set confused) each,
  nf ranks: count, then a set each (rank i+1 = the i-th set), set exclusions,
  nf decompositions: count, then (codepoint gap from the previous key, sequence) each.
"""
import base64
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources/EthereumContracts/ENS/ENSIP15Tables.swift")


def specs_dir(args):
    if args:
        return args[0]
    try:  # the ens package of the Python running this (the venv's, for the tests)
        import ens
        return os.path.join(os.path.dirname(ens.__file__), "specs")
    except ImportError:
        pass
    found = glob.glob(os.path.join(ROOT, ".venv/lib/python3*/site-packages/ens/specs"))
    if not found:
        sys.exit("ensip15_tables.py: no .venv/lib/python3*/site-packages/ens/specs (run make venv, or name the directory)")
    return found[0]


class Writer:
    def __init__(self):
        self.out = bytearray()

    def uint(self, n):
        assert n >= 0
        while True:
            b = n & 0x7F
            n >>= 7
            if n:
                self.out.append(b | 0x80)
            else:
                self.out.append(b)
                return

    def string(self, s):
        b = s.encode()
        self.uint(len(b))
        self.out += b

    def sequence(self, cps):
        self.uint(len(cps))
        for cp in cps:
            self.uint(cp)

    def set(self, cps):
        cps = sorted(set(cps))
        runs = []
        for cp in cps:
            if runs and runs[-1][1] + 1 == cp:
                runs[-1][1] = cp
            else:
                runs.append([cp, cp])
        self.uint(len(runs))
        end = 0
        for a, b in runs:
            self.uint(a - end)
            self.uint(b - a)
            end = b + 1

    def keyed(self, pairs):
        self.uint(len(pairs))
        prev = 0
        for cp, seq in sorted(pairs):
            self.uint(cp - prev)
            self.sequence(seq)
            prev = cp


def main():
    args = sys.argv[1:]
    check = "--check" in args
    d = specs_dir([a for a in args if a != "--check"])
    with open(os.path.join(d, "normalization_spec.json")) as f:
        spec = json.load(f)
    with open(os.path.join(d, "nf.json")) as f:
        nf = json.load(f)
    w = Writer()
    w.out += b"ENS1"
    w.string(spec["created"])
    w.string(spec["unicode"])
    w.set(spec["ignored"])
    w.set(spec["cm"])
    w.set(spec["nsm"])
    w.uint(spec["nsm_max"])
    w.set(spec["escape"])
    w.uint(len(spec["fenced"]))
    for cp, name in spec["fenced"]:
        w.uint(cp)
        w.string(name)
    w.keyed([(cp, seq) for cp, seq in spec["mapped"]])
    w.uint(len(spec["emoji"]))
    for seq in spec["emoji"]:
        w.sequence(seq)
    w.uint(len(spec["groups"]))
    for g in spec["groups"]:
        w.string(g["name"])
        w.uint((1 if g.get("restricted") else 0) | (2 if "cm" in g else 0))
        w.set(g["primary"])
        w.set(g.get("secondary", []))
    w.uint(len(spec["wholes"]))
    for whole in spec["wholes"]:
        w.set(whole["valid"])
        w.set(whole["confused"])
    w.uint(len(nf["ranks"]))
    for rank in nf["ranks"]:
        w.set(rank)
    w.set(nf["exclusions"])
    w.keyed([(cp, seq) for cp, seq in nf["decomp"]])
    data = bytes(w.out)
    text = base64.b64encode(data).decode()
    lines = [text[i:i + 120] for i in range(0, len(text), 120)]
    text_out = ("// Generated by tools/ensip15_tables.py from ENSIP-15's spec.json and nf.json (created %s, Unicode %s).\n"
                % (spec["created"], spec["unicode"].split(" ")[0]))
    text_out += "// Normative data of ENSIP-15, not code: regenerate, never edit. %d bytes, base64.\n" % len(data)
    text_out += "// swiftlint:disable all\n\n"
    text_out += "extension ENSIP15 {\n    static let tablesBase64: String = \"\"\"\n"
    for line in lines:
        text_out += "        " + line + "\n"
    text_out += "        \"\"\"\n}\n"
    if check:
        current = open(OUT).read() if os.path.exists(OUT) else ""
        if current != text_out:
            sys.exit("ensip15_tables.py: %s differs from the tables of %s: run python3 tools/ensip15_tables.py"
                     % (os.path.relpath(OUT, ROOT), d))
        print("%s matches %s" % (os.path.relpath(OUT, ROOT), d))
        return
    with open(OUT, "w") as f:
        f.write(text_out)
    print("wrote %s: %d bytes of tables, %d bytes of Swift" % (os.path.relpath(OUT, ROOT), len(data), os.path.getsize(OUT)))


if __name__ == "__main__":
    main()
