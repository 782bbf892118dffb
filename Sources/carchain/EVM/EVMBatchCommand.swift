import ArgumentParser
import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// `carchain evm batch`: executes many transactions, each on its own pre-state, read as JSON lines; prints one
/// JSON line per case with the outcome and the whole post-state. One process for thousands of cases, which is what
/// the differential fuzzer against revm (tools/fuzz_evm.py) needs.
struct EVMBatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Execute transactions given as JSON lines, each on its own state; print one JSON result per line.",
        discussion: """
            Each input line is one case (numbers as decimal or 0x-hex strings or JSON integers; omitted fields are \
            zero or empty):
              {"id": 1, "fork": "Cancun", "caller": "0x…", "to": "0x…" (omit to create), "value": "0x0",
               "data": "0x…", "gas": 1000000, "gasPrice": "0x0",
               "block": {"number": 1, "timestamp": 1000, "coinbase": "0x…", "gasLimit": 30000000,
                         "difficulty": "0x0", "prevRandao": "0x…", "baseFee": "0x0"},
               "accounts": {"0x…": {"balance": "0x…", "nonce": 0, "code": "0x…", "storage": {"0x1": "0x2"}}}}
            The transaction is a legacy one from `caller` (no signature: the sender is given), executed with the \
            fork's full rules: validation, intrinsic gas, the call or creation, refunds, fees, EIP-161 clean-up. \
            Each output line: {"id", "status": "success"|"revert"|"halt"|"invalid", "reason", "output", \
            "gasUsed" (after the refund), "gasRefunded", "logs": [{"address","topics","data"}], \
            "accounts": {address: {"balance","nonce","code","storage"}}} with every account of the post-state.

            Examples:
              echo '{"id":1,"caller":"0x11…11","to":"0x22…22","gas":100000,"accounts":{…}}' | carchain evm batch
              carchain evm batch cases.jsonl > results.jsonl
            """
    )

    @Argument(help: "A file of JSON lines (default: standard input).")
    var file: String?

    func run() throws {
        let data = try file.map { path throws(CLIError) in try CLIInput.file(path, option: "FILE", limit: InputFile.bulkLimit) }
            ?? CLIInput.standardInput(limit: InputFile.bulkLimit)
        let buffers = ExecutionBuffers()
        var out = Data()
        for (number, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            let batchCase: BatchCase
            do { batchCase = try BatchCase(json: try JSONValue(parsing: Array(line))) } catch {
                throw CLIError("line \(number + 1): not a case: \(error)")
            }
            let result = try batchCase.execute(buffers: buffers, line: number + 1)
            out.append(contentsOf: result.json.description.utf8)
            out.append(UInt8(ascii: "\n"))
            if out.count > 1 << 20 {
                FileHandle.standardOutput.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(out)
    }
}
