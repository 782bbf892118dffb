import Chain
import EthereumContracts
import EthereumContractsLocal

extension TestChain {
    /// The call tree of a mined transaction (the chain's `callTracer`), one frame a line, with labels and, for a
    /// labelled contract with an ABI, the function and arguments decoded:
    ///
    /// ```
    /// [23447] alice → Bank.withdraw(amount: 6)
    ///   ← reverted with InsufficientBalance(available=5, requested=6)
    /// ```
    public func callTrace(_ hash: Bytes32) async throws -> String {
        let result: TraceResult
        do throws(ChainError) {
            result = try await chain.trace(transaction: hash, tracer: .callTracer(CallTracerOptions(withLog: true)))
        } catch { throw DevChainBackendError.chain(error) }
        guard case .callFrame(let root) = result else { throw TestFailure("the call tracer gave another kind of trace") }
        var lines: [String] = []
        render(root, depth: 0, into: &lines)
        return lines.joined(separator: "\n")
    }

    private func render(_ frame: CallFrame, depth: Int, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        let target = frame.to.map { name(of: $0) } ?? "new contract"
        let abi = frame.to.flatMap { label(of: $0)?.abi }
        var call: String
        if frame.type == .create || frame.type == .create2 {
            call = "\(target) (\(frame.type.rawValue), \(frame.input.count) bytes of code)"
        } else if let abi, let selector = ABISelector(prefixOf: frame.input), let function = abi.function(selector: selector),
            let values = try? function.decodeCall(frame.input)
        {
            let arguments = zip(function.inputs, values).map { parameter, value in
                (parameter.name.isEmpty ? "" : "\(parameter.name): ") + describe(value)
            }
            call = "\(target).\(function.name)(\(arguments.joined(separator: ", ")))"
        } else if frame.input.isEmpty {
            call = "\(target) (receive)"
        } else {
            call = "\(target) calldata \(Hex.encode(Array(frame.input.prefix(36))))\(frame.input.count > 36 ? "…" : "")"
        }
        if let value = frame.value, value != .zero { call += " {value: \(value)}" }
        let kind = frame.type == .call || frame.type == .create ? "" : " [\(frame.type.rawValue)]"
        lines.append("\(indent)[\(frame.gasUsed)] \(name(of: frame.from)) → \(call)\(kind)")
        for log in frame.logs {
            let event = label(of: log.log.address)?.abi.flatMap { abi in
                log.log.topics.first.flatMap { abi.event(topic0: $0) }.flatMap { event in
                    (try? event.decodeLog(topics: log.log.topics, data: log.log.data)).map { decoded in
                        "\(event.name)(" + zip(event.inputs, decoded.values).map { "\($0.name): \($1.value.map(describe) ?? $1.description)" }.joined(separator: ", ") + ")"
                    }
                }
            }
            lines.append("\(indent)  emit \(event ?? "log with \(log.log.topics.count) topics, \(log.log.data.count) bytes")")
        }
        for child in frame.calls { render(child, depth: depth + 1, into: &lines) }
        if let error = frame.error {
            let abi = frame.to.flatMap { label(of: $0)?.abi } ?? ContractABI(items: [])
            // A revert's data decoded with the contract's ABI; other failures (out of gas, invalid opcode) as the tracer says.
            lines.append("\(indent)  ← \(error == "execution reverted" ? "\(abi.decodeRevert(frame.output))" : error)")
        }
    }

    /// An argument as text, an address by its label.
    private func describe(_ value: ABIValue) -> String {
        switch value {
        case .address(let address): return name(of: address)
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        case .tuple(let items): return "(" + items.map(describe).joined(separator: ", ") + ")"
        default: return value.description
        }
    }
}
