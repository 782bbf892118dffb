/// IDENTITY (0x04): returns its input. Gas: 15 + 3 per word.
enum Identity {
    static func run(input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        let gas = Precompiles.wordGas(base: 15, perWord: 3, length: input.count)
        guard gas <= gasLimit else { return .failure }
        return .success(gasUsed: gas, output: input)
    }
}
