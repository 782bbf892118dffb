"""web3.py's side of the ENS tests (Tests/EthereumContractsTests/ENSTests.swift). Reads a JSON request on stdin:

{"mode": "names", "count": N}
    Makes a deterministic corpus of about N names from ENSIP-15's own tables as web3.py ships them (every script
    group, mixtures of two groups, emoji sequences with and without FE0F, mapped, ignored and disallowed
    characters, fenced characters, combining and non-spacing marks, whole-script confusables, label extensions,
    underscores, decomposed text, empty labels) and prints, per name, web3.py's ENSIP-15 normalisation
    (`ens._normalization.normalize_name_ensip15`, or its error), the reference port's (PyPI `ens-normalize`, when
    installed: its normal and beautified forms), and web3.py's namehash and DNS encoding of the normalised name.

{"mode": "contracts"}
    Prints the published bytecode and ABIs of the contracts the tests deploy, read from the installed packages
    (web3's ens/contract_data.py and web3/_utils/contract_sources/contract_data): nothing of it is in the repo.

{"mode": "resolve", "url": …, "registry": …, "queries": [{"kind": "addr"|"coin"|"text"|"contenthash"|"name"|"owner"|
 "raw", …}]}
    Answers each query with web3.py on the node: its name handling (ens.utils: normalisation, namehash, DNS
    encoding, reverse names), its contract calls with the ENS ABIs it ships (ens.abis), and its CCIP-read
    (`ccip_read_enabled`), following ENSIP-10 (the nearest ancestor's resolver; `resolve(bytes,bytes)` when it
    supports 0x9061b923); owners through web3.py's ENS class. That class resolves records only through the Universal
    Resolver at its mainnet address, whose bytecode no installed package ships, so it cannot resolve on a fresh chain.
"""

import json
import random
import sys


def web3_normalize(name):
    from ens._normalization import normalize_name_ensip15

    try:
        return {"ok": normalize_name_ensip15(name).as_text}
    except Exception as e:  # InvalidName, and any other failure of web3.py on odd input
        return {"error": f"{type(e).__name__}: {e}"}


def reference_normalize(name):
    try:
        from ens_normalize import ens_beautify, ens_normalize
    except ImportError:
        return None
    try:
        return {"ok": ens_normalize(name), "beautified": ens_beautify(name)}
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def corpus(count):
    from ens._normalization import NORMALIZATION_SPEC as spec

    rng = random.Random(15)
    groups = spec["groups"]
    emoji = [e for e in spec["emoji"]]
    mapped = list(spec["mapped"].keys())
    ignored = spec["ignored"]
    cm = spec["cm"]
    nsm = spec["nsm"]
    fenced = [f[0] for f in spec["fenced"]]
    wholes = spec["wholes"]
    valid = set()
    for g in groups:
        valid.update(g["primary"])
        valid.update(g.get("secondary", []))
    s = lambda cps: "".join(chr(c) for c in cps)

    def pick(g, n):
        pool = g["primary"] if g["primary"] else g.get("secondary", [])
        return [rng.choice(pool) for _ in range(n)]

    names = [
        "", "eth", "nick.eth", "Nick.ETH", "vitalik.eth", "xn--abc.eth", "ab--c.eth", "a--b.eth", "_a.eth", "__a.eth",
        "a_b.eth", "a.b.c.d.eth", "a..eth", ".eth", "eth.", "123.eth", "-a-.eth", "💩.eth", "💩💩💩.eth",
        "\u2764\ufe0f.eth", "\u2764.eth", "1\ufe0f\u20e3.eth", "1\u20e3.eth", "👨‍👩‍👧‍👦.eth", "🏳️‍🌈.eth", "e\u0301.eth",
        "é.eth", "bücher.eth", "Bücher.eth", "ΞΞΞ.eth", "ξ.eth", "παράδειγμα.eth", "пример.eth", "例子.eth", "テスト.eth",
        "한국.eth", "مثال.eth", "उदाहरण.eth", "a’b.eth", "’ab.eth", "ab’.eth", "a’’b.eth", "a\u00adb.eth",
        "a\u200db.eth", "a b.eth", "a\tb.eth", "Ａｂｃ.eth", "ß.eth", "ẞ.eth", "ﬀ.eth", "İ.eth", "ı.eth", "ǆ.eth",
        "аррӏе.eth", "apple.eth", "раураl.eth", "0x.eth", "x\u0300\u0301\u0302\u0303\u0304\u0305.eth",
        "\u0300a.eth", "💩\u0300.eth", "a.\u0300.eth", "ᄀ.eth", "각.eth", "\u1100\u1161\u11a8.eth",
    ]
    while len(names) < count:
        kind = rng.randrange(12)
        if kind == 0:  # a label from one group
            g = rng.choice(groups)
            label = s(pick(g, rng.randint(1, 6)))
        elif kind == 1:  # two groups mixed
            a, b = rng.sample(groups, 2)
            label = s(pick(a, rng.randint(1, 3)) + pick(b, rng.randint(1, 3)))
        elif kind == 2:  # emoji, with or without their FE0F, alone or with text
            seq = rng.choice(emoji)
            if rng.random() < 0.5:
                seq = [c for c in seq if c != 0xFE0F]
            label = s(seq)
            if rng.random() < 0.5:
                label += s(pick(groups[0], 2))
            if rng.random() < 0.3:
                label = s(rng.choice(emoji)) + label
        elif kind == 3:  # mapped characters
            label = s([rng.choice(mapped) for _ in range(rng.randint(1, 4))] + pick(groups[0], 1))
        elif kind == 4:  # ignored characters inside text, or alone
            label = s(pick(groups[0], 2) + [rng.choice(ignored)] + pick(groups[0], rng.randint(0, 2)))
        elif kind == 5:  # a disallowed character
            while True:
                cp = rng.choice([rng.randrange(0x20, 0x3000), rng.randrange(0xE000, 0xFFFF), rng.randrange(0x10000, 0x30000)])
                if not 0xD800 <= cp <= 0xDFFF and cp not in valid and cp not in spec["mapped"] and cp not in ignored:
                    break
            label = s(pick(groups[0], 2) + [cp])
        elif kind == 6:  # fenced characters anywhere
            cps = pick(groups[0], 3)
            cps.insert(rng.randrange(len(cps) + 1), rng.choice(fenced))
            if rng.random() < 0.3:
                cps.insert(rng.randrange(len(cps) + 1), rng.choice(fenced))
            label = s(cps)
        elif kind == 7:  # combining marks after text, at the start, after emoji
            where = rng.randrange(3)
            mark = rng.choice(cm)
            if where == 0:
                label = s(pick(groups[0], 2) + [mark])
            elif where == 1:
                label = s([mark] + pick(groups[0], 2))
            else:
                label = s(rng.choice(emoji)) + chr(mark)
        elif kind == 8:  # non-spacing marks on a script without free combining marks (Arabic, Devanagari, …)
            g = rng.choice([g for g in groups if "cm" not in g and not g.get("restricted")])
            marks = [rng.choice(nsm) for _ in range(rng.randint(1, 6))]
            if rng.random() < 0.3:
                marks = [marks[0], marks[0]]
            label = s(pick(g, 2) + marks)
        elif kind == 9:  # whole-script confusables: a label of confusable characters, alone or with others
            w = rng.choice(wholes)
            cps = [rng.choice(w["confused"]) for _ in range(rng.randint(1, 3))]
            if w["valid"] and rng.random() < 0.4:
                cps += [rng.choice(w["valid"])]
            label = s(cps)
        elif kind == 10:  # decomposed text (NFC composes it) and Hangul jamo
            base = rng.choice("aeiouAEIOUcnyz")
            label = base + s([rng.choice([0x300, 0x301, 0x302, 0x303, 0x308, 0x327, 0x30A])]) + s(pick(groups[0], 1))
            if rng.random() < 0.3:
                label = s([0x1100 + rng.randrange(19), 0x1161 + rng.randrange(21)] + ([0x11A8 + rng.randrange(27)] if rng.random() < 0.5 else []))
        else:  # several labels, one of them odd
            label = ".".join(s(pick(rng.choice(groups[:12]), rng.randint(1, 4))) for _ in range(rng.randint(1, 3)))
        names.append(label + rng.choice([".eth", ".eth", "", ".xyz"]))
    return names


def names_mode(request):
    from ens.utils import dns_encode_name, normal_name_to_hash

    out = []
    for name in corpus(int(request.get("count", 1000))):
        entry = {"name": name, "web3": web3_normalize(name), "reference": reference_normalize(name)}
        if "ok" in entry["web3"] and entry["web3"]["ok"]:
            normal = entry["web3"]["ok"]
            entry["namehash"] = "0x" + normal_name_to_hash(normal).hex()
            try:
                entry["dns"] = "0x" + dns_encode_name(normal).hex()
            except Exception:
                pass
        out.append(entry)
    json.dump(out, sys.stdout)


def contracts_mode(request):
    import ens.contract_data as cd
    from web3._utils.contract_sources.contract_data import extended_resolver, offchain_lookup, offchain_resolver

    def clean(code):
        return code if code.startswith("0x") else "0x" + code

    json.dump({
        "publicResolver": {"bytecode": clean(cd.resolver_bytecode), "abi": cd.resolver_abi},
        "reverseRegistrar": {"bytecode": clean(cd.reverse_registrar_bytecode), "abi": cd.reverse_registrar_abi},
        "reverseResolver": {"bytecode": clean(cd.reverse_resolver_bytecode), "abi": cd.reverse_resolver_abi},
        "extendedResolver": {"bytecode": clean(extended_resolver.EXTENDED_RESOLVER_BYTECODE), "abi": extended_resolver.EXTENDED_RESOLVER_ABI},
        "offchainResolver": {"bytecode": clean(offchain_resolver.OFFCHAIN_RESOLVER_BYTECODE), "abi": offchain_resolver.OFFCHAIN_RESOLVER_ABI},
        "offchainLookup": {"bytecode": clean(offchain_lookup.OFFCHAIN_LOOKUP_BYTECODE), "abi": offchain_lookup.OFFCHAIN_LOOKUP_ABI},
    }, sys.stdout)


def resolve_mode(request):
    from ens import ENS, abis
    from ens.utils import address_to_reverse_domain, dns_encode_name, normal_name_to_hash, normalize_name
    from web3 import Web3
    import web3.utils.exception_handling as ccip

    w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 60}))
    # The tests' gateway listens on 127.0.0.1: web3.py refuses loopback gateways and plain HTTP unless told.
    w3.provider.ccip_read_allow_http = True
    ccip.validate_ccip_url_host = lambda url: None
    registry = w3.eth.contract(address=Web3.to_checksum_address(request["registry"]), abi=abis.ENS)
    ns = ENS.from_web3(w3, Web3.to_checksum_address(request["registry"]))
    zero = "0x" + "00" * 20

    def find_resolver(normal):
        labels = normal.split(".") if normal else []
        while True:
            candidate = ".".join(labels)
            address = registry.functions.resolver(normal_name_to_hash(candidate)).call()
            if int(address, 16) != 0:
                return address, candidate
            if not labels:
                return None, None
            labels.pop(0)

    def extended(address):
        c = w3.eth.contract(address=address, abi=abis.PUBLIC_RESOLVER_2_EXTENDED)
        try:
            return c.functions.supportsInterface(bytes.fromhex("9061b923")).call()
        except Exception:
            return False

    def resolve(name, fn, args, abi):
        normal = normalize_name(name)
        address, set_on = find_resolver(normal)
        if address is None:
            return None
        node = normal_name_to_hash(normal)
        contract = w3.eth.contract(address=address, abi=abi)
        func = getattr(contract.functions, fn)(node, *args)
        if extended(address):
            data = func._encode_transaction_data()
            ext = w3.eth.contract(address=address, abi=abis.PUBLIC_RESOLVER_2_EXTENDED)
            raw = ext.functions.resolve(dns_encode_name(normal), data).call(ccip_read_enabled=True)
            if not raw:
                return None
            return w3.codec.decode([o["type"] for o in func.abi["outputs"]], raw)[0]
        if set_on != normal:
            return None
        return func.call()

    answers = []
    for q in request["queries"]:
        try:
            kind = q["kind"]
            if kind == "addr":
                v = resolve(q["name"], "addr", [], abis.PUBLIC_RESOLVER_2_EXTENDED)
                v = None if v is None or int(v, 16) == 0 else Web3.to_checksum_address(v)
            elif kind == "coin":
                v = resolve(q["name"], "addr", [int(q["coinType"])], abis.PUBLIC_RESOLVER_2_EXTENDED)
                v = "0x" + v.hex() if v else None
            elif kind == "text":
                v = resolve(q["name"], "text", [q["key"]], abis.PUBLIC_RESOLVER_2_EXTENDED) or None
            elif kind == "contenthash":
                v = resolve(q["name"], "contenthash", [], abis.PUBLIC_RESOLVER_2_EXTENDED)
                v = "0x" + v.hex() if v else None
            elif kind == "name":
                address = Web3.to_checksum_address(q["address"])
                claimed = resolve(address_to_reverse_domain(address), "name", [], abis.REVERSE_RESOLVER)
                v = None
                if claimed:
                    try:
                        normal = normalize_name(claimed)
                    except Exception:
                        normal = None
                    if normal == claimed:
                        forward = resolve(claimed, "addr", [], abis.PUBLIC_RESOLVER_2_EXTENDED)
                        if forward and Web3.to_checksum_address(forward) == address:
                            v = claimed
            elif kind == "owner":  # web3.py's ENS module (the registry itself, no Universal Resolver needed)
                v = ns.owner(q["name"])
                v = None if v is None or int(v, 16) == 0 else Web3.to_checksum_address(v)
            elif kind == "raw":  # a call with CCIP-read on, its return data as hex
                data = w3.eth.call({"to": Web3.to_checksum_address(q["to"]), "data": q["data"]}, ccip_read_enabled=True)
                v = "0x" + bytes(data).hex()
            else:
                raise ValueError(f"unknown query kind {kind}")
            answers.append({"value": v})
        except Exception as e:
            answers.append({"error": f"{type(e).__name__}: {e}"})
    json.dump(answers, sys.stdout)


def main():
    request = json.load(sys.stdin)
    {"names": names_mode, "contracts": contracts_mode, "resolve": resolve_mode}[request["mode"]](request)


if __name__ == "__main__":
    main()
