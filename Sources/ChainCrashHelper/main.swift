// Test helper for the chain's crash-safety test: opens the data directory given as the first
// argument and sends value transfers from the first dev account in a loop, printing each
// transaction hash once `sendRawTransaction` has returned (the block holding it is committed).
// The test kills it with SIGKILL at an arbitrary moment and checks every printed hash survived.
import Chain
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// Writes a line straight to the file descriptor (no buffering to lose at a kill).
func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

guard CommandLine.arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ChainCrashHelper <data-dir> [max-transactions]\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: CommandLine.arguments[1])
let limit = CommandLine.arguments.count >= 3 ? Int(CommandLine.arguments[2]) ?? Int.max : Int.max

do {
    let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
    guard let sender = DevAccounts.standard.first, let key = sender.privateKey else { exit(3) }
    let recipient = try Address("0x00000000000000000000000000000000000000aa")
    var nonce = try await chain.nonce(sender.address, at: .pending)
    emit("ready \(await chain.blockNumber())")
    var sent = 0
    while sent < limit {
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainId: chain.chainId, nonce: nonce, maxPriorityFeePerGas: UInt256(1), maxFeePerGas: UInt256(10_000_000_000 as UInt64),
                gasLimit: 21_000, to: recipient, value: UInt256(1)))
        let hash = try await chain.sendRawTransaction(tx.sign(with: key).encoded)
        emit("ack \(hash)")
        nonce += 1
        sent += 1
    }
    await chain.close()
} catch {
    FileHandle.standardError.write(Data("ChainCrashHelper: \(error)\n".utf8))
    exit(1)
}
