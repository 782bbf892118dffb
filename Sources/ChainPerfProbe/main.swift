// Perf probe: automined CarChain transactions on a DevChain (in memory, or SQLite in `dir`), printing
// tx/s per window of 200 blocks, to see whether throughput depends on chain length or state size.
// `count` cars and users are registered and credited (3 × count blocks), then `count` rentCar calls.
// usage: swift build -c release --product ChainPerfProbe && .build/release/ChainPerfProbe [count] [dir]
// Import mode, to profile `carchain chain import` alone: `ChainPerfProbe export FILE [count]` writes the blocks
// of that traffic (automined in memory) to FILE; `ChainPerfProbe import FILE [dir]` imports FILE into a new
// chain (SQLite in `dir`, else memory) and prints blocks/s.
// How the rentals are sent (mine mode): raw signed transactions through `sendRawTransaction` (the default: decoded and
// their senders recovered, as over JSON-RPC), or with `--sign-here` through `DevChain.send(_:signingWith:)` (signed
// in the chain with the sender's key, which is then known), or with `--unsigned` through `DevChain.send(_:unsigned:)`
// (impersonated, as a test bench sends: no signature at all).
// Soak mode (Soak.swift; `make soak`): `ChainPerfProbe soak TRANSACTIONS [dir|memory] [report-every]` automines that
// many transactions of mixed traffic (SQLite in `dir`, else in memory) and reports throughput and resident memory.
import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ChainPerfProbe: \(message)\n".utf8))
    exit(1)
}
var arguments = Array(CommandLine.arguments.dropFirst())
enum Sending { case raw, signHere, unsigned }
var sending = Sending.raw
if let flag = arguments.firstIndex(where: { $0 == "--sign-here" || $0 == "--unsigned" }) {
    sending = arguments.remove(at: flag) == "--unsigned" ? .unsigned : .signHere
}
let mode = ["export", "import", "soak"].contains(arguments.first ?? "") ? arguments.removeFirst() : "mine"
if sending != .raw && mode != "mine" { fail("--sign-here and --unsigned are for mine mode (ChainPerfProbe [count] [dir])") }
if mode == "soak" {
    guard let count = arguments.first.flatMap({ Int($0) }), count > 0 else { fail("soak needs a positive TRANSACTIONS count") }
    let every = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
    guard every > 0 else { fail("report-every must be positive") }
    do {
        // "memory" (or no dir) keeps the chain in memory, as `carchain node --ephemeral` does.
        let dir = arguments.count > 1 && arguments[1] != "memory" ? URL(fileURLWithPath: arguments[1]) : nil
        try await Soak(transactions: count, directory: dir, reportEvery: every).run()
    } catch {
        fail("\(error)")
    }
    exit(0)
}
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
let hex = Hex.encode(CarChainArtifact.bytecode)
guard !CarChainArtifact.bytecode.isEmpty else { fail("no bytecode in contracts/CarChain.json") }
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
var rentalCalls: [CallRequest] = []
for i in 0..<count {
    let data = encodeCall("rentCar(string,string)", ["CAR-\(i)", "user-\(i)"])
    if sending == .raw {
        rentals.append(sign(c, data, gas: 200_000))
    } else {
        rentalCalls.append(CallRequest(from: key.address, to: c, gas: 200_000, maxFeePerGas: UInt256(100_000_000_000 as UInt64), maxPriorityFeePerGas: UInt256(1), data: data, nonce: nonce))
        nonce += 1
    }
}

let chain = try await DevChain(config: .deterministic(), storage: dir.map { .directory($0) } ?? .memory)
// Off the main actor, as a test or a server calls the chain: top-level code runs on the main thread, and from there every
// call to the chain's actor would hop to a pool thread and back (two futex wake-ups a transaction, a quarter of the CPU).
func run(_ label: String, _ raws: [[UInt8]], calls: [CallRequest] = []) async throws {
    try await Task.detached { [chain, sending, key] in
        try await send(label, raws, calls: calls, to: chain, sending: sending, key: key)
    }.value
}
nonisolated func send(
    _ label: String, _ raws: [[UInt8]], calls: [CallRequest], to chain: DevChain, sending: Sending, key: PrivateKey
) async throws {
    var start = ContinuousClock.now
    for i in 0..<(raws.count + calls.count) {
        if i < raws.count {
            _ = try await chain.sendRawTransaction(raws[i])
        } else {
            let sent = try await chain.send(calls[i - raws.count], signingWith: sending == .signHere ? key : nil, unsigned: sending == .unsigned)
            guard sent.receipt?.status == true else { fail("\(label) \(i): not mined, or reverted") }
        }
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
    // For profiles of the rentals alone: `perf record -k CLOCK_MONOTONIC` and keep the samples after this mark.
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    print("mark rentCar \(now.tv_sec).\(String(format: "%09d", now.tv_nsec))")
    var cpu0 = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0)
    let wall0 = ContinuousClock.now
    if sending == .unsigned { await chain.setAutoImpersonate(true) }
    try await run("rentCar", rentals, calls: rentalCalls)
    var cpu1 = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1)
    let wall = ContinuousClock.now - wall0
    let cpuSeconds = Double(cpu1.tv_sec - cpu0.tv_sec) + Double(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9
    let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
    print(String(
        format: "rentCar ×%d\(sending == .raw ? "" : sending == .signHere ? " (signed here)" : " (unsigned)"): %.0f tx/s wall, %.1f µs wall and %.1f µs CPU (all threads) per transaction", count,
        Double(count) / wallSeconds, wallSeconds * 1e6 / Double(count), cpuSeconds * 1e6 / Double(count)))
}
await chain.close()
