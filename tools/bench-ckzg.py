#!/usr/bin/env python3
"""Reference for the KZG and BLS12-381 pairing benchmarks: c-kzg-4844 (PyPI `ckzg`, C on blst) verifying one
point-evaluation proof, the call behind the 0x0a precompile in Ethereum clients. Its work is a two-pair
pairing check (two Miller loops, one final exponentiation) plus a G1 and a G2 scalar multiplication, so it is
also the reference for the BLS12_PAIRING_CHECK (0x0f) benchmark with two pairs: ckzg exposes no bare pairing.
Prints the minimum and median of RUNS timings in ms (package-benchmark's p0 and p50).

    bench-ckzg.py [RUNS]
"""
import os
import random
import statistics
import sys
import time

import ckzg
import eth

R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    settings = ckzg.load_trusted_setup(os.path.join(os.path.dirname(eth.__file__), "_utils", "kzg_trusted_setup.txt"), 0)
    rng = random.Random(4844)
    blob = b"".join(rng.randrange(R).to_bytes(32, "big") for _ in range(4096))
    commitment = ckzg.blob_to_kzg_commitment(blob, settings)
    z = rng.randrange(R).to_bytes(32, "big")
    proof, y = ckzg.compute_kzg_proof(blob, z, settings)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        ok = ckzg.verify_kzg_proof(commitment, z, y, proof, settings)
        times.append((time.perf_counter() - t0) * 1000)
        assert ok
    print(f"    c-kzg-4844 verify_kzg_proof: min {min(times):.3f} ms, median {statistics.median(times):.3f} ms "
          f"over {runs} runs")


if __name__ == "__main__":
    main()
