#!/usr/bin/env python3
"""Point-evaluation precompile inputs (EIP-4844) from c-kzg-4844 (PyPI `ckzg`), for the Swift tests.

    kzg_vectors.py COUNT SEED  ->  JSON: {"tauG2": hex, "hardExponent": hex, "cases": [{"input", "valid", "what"}]}

For each of COUNT random blobs: a valid proof at a random z, then mutations (wrong y, wrong z, another
blob's proof, a flipped sign bit, a wrong versioned hash, x = p, the infinity encoding). "valid" is
what ckzg's verify_kzg_proof says (a malformed point is invalid), and the versioned hash must match.
Also prints [tau]_2 from the trusted setup ckzg uses and (p^6 + 1)/r, for checking the Swift constants.
"""
import hashlib
import json
import os
import random
import sys

import ckzg
import eth

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001


def setup_path():
    return os.path.join(os.path.dirname(eth.__file__), "_utils", "kzg_trusted_setup.txt")


def versioned_hash(commitment):
    return b"\x01" + hashlib.sha256(commitment).digest()[1:]


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    path = setup_path()
    settings = ckzg.load_trusted_setup(path, 0)
    with open(path) as f:
        lines = [line.strip() for line in f]
    n_g1 = int(lines[0])
    tau_g2 = lines[2 + n_g1 + 1]  # the G2 points follow the first block of G1 points; index 1 is [tau]_2

    def verify(commitment, z, y, proof):
        try:
            return bool(ckzg.verify_kzg_proof(commitment, z, y, proof, settings))
        except Exception:
            return False

    cases = []

    def add(what, vhash, z, y, commitment, proof):
        valid = vhash == versioned_hash(commitment) and verify(commitment, z, y, proof)
        cases.append({"what": what, "input": (vhash + z + y + commitment + proof).hex(), "valid": valid})

    proofs = []
    for i in range(count):
        blob = b"".join(rng.randrange(R).to_bytes(32, "big") for _ in range(4096))
        commitment = ckzg.blob_to_kzg_commitment(blob, settings)
        z = rng.randrange(R).to_bytes(32, "big")
        proof, y = ckzg.compute_kzg_proof(blob, z, settings)
        proofs.append(proof)
        vh = versioned_hash(commitment)
        add(f"blob {i}: valid", vh, z, y, commitment, proof)
        add(f"blob {i}: y + 1", vh, z, ((int.from_bytes(y, "big") + 1) % R).to_bytes(32, "big"), commitment, proof)
        add(f"blob {i}: z + 1", vh, ((int.from_bytes(z, "big") + 1) % R).to_bytes(32, "big"), y, commitment, proof)
        if i > 0:
            add(f"blob {i}: previous blob's proof", vh, z, y, commitment, proofs[i - 1])
        flipped = bytes([proof[0] ^ 0x20]) + proof[1:]
        add(f"blob {i}: proof with the other y", vh, z, y, commitment, flipped)
        add(f"blob {i}: wrong versioned hash", b"\x02" + vh[1:], z, y, commitment, proof)
        x_is_p = bytes([0x80 | (P >> 376)]) + (P % (1 << 376)).to_bytes(47, "big")
        add(f"blob {i}: commitment x = p", versioned_hash(x_is_p), z, y, x_is_p, proof)
    infinity = b"\xc0" + bytes(47)
    zero = bytes(32)
    add("commitment and proof at infinity, y = 0", versioned_hash(infinity), zero, zero, infinity, infinity)
    add("commitment and proof at infinity, y = 1", versioned_hash(infinity), zero, (1).to_bytes(32, "big"), infinity, infinity)
    print(json.dumps({"tauG2": tau_g2, "hardExponent": "%x" % ((P**6 + 1) // R), "cases": cases}))


if __name__ == "__main__":
    main()
