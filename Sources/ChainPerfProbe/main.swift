// Perf probe: automined CarChain transactions on a DevChain (in memory, or SQLite in `dir`), printing
// tx/s per window of 200 blocks, to see whether throughput depends on chain length or state size.
// `count` cars and users are registered and credited (3 × count blocks), then `count` rentCar calls.
// usage: swift build -c release --product ChainPerfProbe && .build/release/ChainPerfProbe [count] [dir]
// Import mode, to profile `carchain chain import` alone: `ChainPerfProbe export FILE [count]` writes the blocks
// of that traffic (automined in memory) to FILE; `ChainPerfProbe import FILE [dir]` imports FILE into a new
// chain (SQLite in `dir`, else memory) and prints blocks/s.
import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

func encodeCall(_ signature: String, _ strings: [String], uint: UInt256? = nil) -> [UInt8] {
    let words = strings.count + (uint == nil ? 0 : 1)
    var head: [UInt8] = []
    var tail: [UInt8] = []
    for s in strings {
        head += UInt256(UInt64(32 * words + tail.count)).bigEndianBytes
        let bytes = Array(s.utf8)
        tail += UInt256(UInt64(bytes.count)).bigEndianBytes + bytes
            + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
    }
    if let uint { head += uint.bigEndianBytes }
    return Array(Keccak256.hash(signature).bytes[0..<4]) + head + tail
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ChainPerfProbe: \(message)\n".utf8))
    exit(1)
}
var arguments = Array(CommandLine.arguments.dropFirst())
let mode = ["export", "import"].contains(arguments.first ?? "") ? arguments.removeFirst() : "mine"
var file: URL?
if mode != "mine" {
    guard !arguments.isEmpty else { fail("\(mode) needs a FILE") }
    file = URL(fileURLWithPath: arguments.removeFirst())
}
if mode == "import", let file {
    let bytes = [UInt8](try Data(contentsOf: file))
    let target = arguments.first.map { URL(fileURLWithPath: $0) }
    let chain = try await DevChain(config: .deterministic(), storage: target.map { .directory($0) } ?? .memory)
    let start = ContinuousClock.now
    let summary = try await chain.importBlocks(rlp: bytes)
    let d = ContinuousClock.now - start
    let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    print("imported \(summary.imported) blocks in \(String(format: "%.3f", s)) s: \(Int(Double(summary.imported) / s)) blocks/s")
    await chain.close()
    exit(0)
}
let count = arguments.count > 0 ? Int(arguments[0]) ?? 2200 : 2200
let dir = mode == "mine" && arguments.count > 1 ? URL(fileURLWithPath: arguments[1]) : nil
guard let key = DevAccounts.standard.first?.privateKey else { fail("no dev key") }
let artifact = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../contracts/CarChain.json")
guard let json = try? JSONValue(parsing: [UInt8](Data(contentsOf: artifact))),
    let hex = json["bytecode"]?.stringValue
else { fail("no bytecode in \(artifact.path)") }
nonisolated(unsafe) var nonce: UInt64 = 0
@MainActor func sign(_ to: Address?, _ data: [UInt8], gas: UInt64) -> [UInt8] {
    defer { nonce += 1 }
    return Transaction.dynamicFee(
        DynamicFeeTransaction(
            chainId: 4, nonce: nonce, maxPriorityFeePerGas: UInt256(1), maxFeePerGas: UInt256(100_000_000_000 as UInt64),
            gasLimit: gas, to: to, data: data)
    ).sign(with: key).encoded
}
let c = ContractAddress.create(sender: key.address, nonce: 0)
var setup: [[UInt8]] = [sign(nil, try Hex.decode(hex), gas: 3_000_000)]
for i in 0..<count {
    setup.append(sign(c, encodeCall("registerNewCar(string)", ["CAR-\(i)"]), gas: 200_000))
    setup.append(sign(c, encodeCall("registerNewUser(string)", ["user-\(i)"]), gas: 200_000))
    setup.append(sign(c, encodeCall("addCredit(string,uint256)", ["user-\(i)"], uint: UInt256(10)), gas: 200_000))
}
var rentals: [[UInt8]] = []
for i in 0..<count { rentals.append(sign(c, encodeCall("rentCar(string,string)", ["CAR-\(i)", "user-\(i)"]), gas: 200_000)) }

let chain = try await DevChain(config: .deterministic(), storage: dir.map { .directory($0) } ?? .memory)
func run(_ label: String, _ raws: [[UInt8]]) async throws {
    var start = ContinuousClock.now
    for (i, raw) in raws.enumerated() {
        _ = try await chain.sendRawTransaction(raw)
        if (i + 1) % 200 == 0 {
            let d = ContinuousClock.now - start
            let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            print("\(label) \(i + 1 - 200)..<\(i + 1) head=\(await chain.blockNumber()): \(Int(200 / s)) tx/s")
            start = ContinuousClock.now
        }
    }
}
if mode == "export", let file {
    for raw in setup + rentals { _ = try await chain.sendRawTransaction(raw) }
    let blocks = try await chain.exportBlocks(from: 1, to: await chain.blockNumber())
    try Data(blocks.joined()).write(to: file)
    print("exported \(blocks.count) blocks to \(file.path)")
} else {
    try await run("setup", setup)
    try await run("rentCar", rentals)
}
await chain.close()
