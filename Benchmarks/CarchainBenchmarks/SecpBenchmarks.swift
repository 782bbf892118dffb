import Benchmark
import CSecp256k1
import EthereumCrypto
import EthereumPrimitives

/// Signing and recovery through EthereumCrypto, next to the same operations called directly on libsecp256k1
/// (the reference: the wrapper should add next to nothing).
func registerSecp256k1Benchmarks() {
    let key = try! PrivateKey(hex: "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
    let hash = Keccak256.hash("carchain benchmark message")
    let signature = key.sign(hash: hash)
    let config = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(2))

    Benchmark("secp256k1 sign (carchain)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(key.sign(hash: hash)) }
    }
    Benchmark("secp256k1 recover (carchain)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? Secp256k1.recover(hash: hash, signature: signature)) }
    }

    // Raw libsecp256k1: same context setup as the library, same inputs.
    let ctx = secp256k1_context_create(UInt32(SECP256K1_FLAGS_TYPE_CONTEXT))!
    var seed = [UInt8](repeating: 7, count: 32)
    _ = secp256k1_context_randomize(ctx, &seed)
    let seckey = key.rawBytes
    let msg = hash.bytes
    Benchmark("secp256k1 sign (raw libsecp256k1)", configuration: config) { benchmark in
        var sig = secp256k1_ecdsa_recoverable_signature()
        var compact = [UInt8](repeating: 0, count: 64)
        var recid: Int32 = 0
        for _ in benchmark.scaledIterations {
            _ = secp256k1_ecdsa_sign_recoverable(ctx, &sig, msg, seckey, nil, nil)
            _ = secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, &compact, &recid, &sig)
            blackHole(compact)
        }
    }
    var rawSig = secp256k1_ecdsa_recoverable_signature()
    _ = secp256k1_ecdsa_sign_recoverable(ctx, &rawSig, msg, seckey, nil, nil)
    Benchmark("secp256k1 recover (raw libsecp256k1)", configuration: config) { benchmark in
        var pubkey = secp256k1_pubkey()
        var out = [UInt8](repeating: 0, count: 65)
        var len = 65
        for _ in benchmark.scaledIterations {
            _ = secp256k1_ecdsa_recover(ctx, &pubkey, &rawSig, msg)
            _ = secp256k1_ec_pubkey_serialize(ctx, &out, &len, &pubkey, UInt32(SECP256K1_EC_UNCOMPRESSED))
            blackHole(out)
        }
    }
}
