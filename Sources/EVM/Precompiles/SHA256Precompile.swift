import Crypto

/// SHA256 (0x02): the SHA-256 digest of the input. Gas: 60 + 12 per word.
enum SHA256Precompile {
    static func run(input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        let gas = Precompiles.wordGas(base: 60, perWord: 12, length: input.count)
        guard gas <= gasLimit else { return .failure }
        return .success(gasUsed: gas, output: Array(SHA256.hash(data: input)))
    }
}
