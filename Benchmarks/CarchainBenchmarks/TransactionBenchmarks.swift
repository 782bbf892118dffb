import Benchmark
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions

/// Transaction signing, decoding and sender recovery. "tx legacy sign" is the whole path a wallet takes:
/// RLP-encode the EIP-155 signing payload, Keccak-256 it, sign (libsecp256k1), encode the signed envelope and
/// hash it; compare with "secp256k1 sign (carchain)" for the signature alone.
func registerTransactionBenchmarks() {
    let key = try! PrivateKey(hex: "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
    let recipient = try! Address("0x3535353535353535353535353535353535353535")
    let legacy = Transaction.legacy(LegacyTransaction(
        nonce: 9, gasPrice: 20_000_000_000, gasLimit: 21_000, to: recipient, value: 1_000_000_000_000_000_000, chainId: 4))
    let dynamic = Transaction.dynamicFee(DynamicFeeTransaction(
        chainId: 4, nonce: 9, maxPriorityFeePerGas: 1_000_000_000, maxFeePerGas: 30_000_000_000, gasLimit: 60_000, to: recipient,
        value: 1, data: Array(repeating: 0xab, count: 68),
        accessList: [AccessListEntry(address: recipient, storageKeys: [.zero])]))
    let signedLegacy = legacy.sign(with: key)
    let raw = signedLegacy.encoded
    let config = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(2))

    Benchmark("tx legacy sign (encode + hash + sign)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(legacy.sign(with: key)) }
    }
    Benchmark("tx 1559 sign (encode + hash + sign)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(dynamic.sign(with: key)) }
    }
    Benchmark("tx legacy signing hash (encode + hash)", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(legacy.signingHash) }
    }
    Benchmark("tx legacy decode", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? SignedTransaction.decode(raw)) }
    }
    Benchmark("tx legacy decode + recover sender", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? SignedTransaction.decode(raw).sender()) }
    }
}
