import EthereumContracts
import EthereumPrimitives
import Foundation

/// Where each instruction of a contract's runtime code comes from in its source: the compiler's source map, read into
/// program counter → the source line its instruction belongs to (the first line of the source node it was made from).
public struct SourceMap: Sendable, Hashable {
    /// Program counter → 1-based line.
    public var lines: [Int: Int]

    public init(lines: [Int: Int]) { self.lines = lines }

    /// vyper's `-f source_map` output (vyper 0.4: `pc_pos_map`, pc → [line, column, end line, end column], for the
    /// runtime code). Instructions made from the module as a whole (the selector dispatch: a span from the file's
    /// first character to its last line) belong to no line.
    public init(vyper json: JSONValue) throws {
        guard let map = json["pc_pos_map"]?.objectValue else {
            throw TestFailure("the source map has no pc_pos_map (vyper's -f source_map output is expected)")
        }
        var spans: [(pc: Int, line: Int, column: Int, endLine: Int)] = []
        for (pc, position) in map {
            let numbers = (position.arrayValue ?? []).compactMap { value -> Int? in
                if case .number(let text) = value { return Int(text) }
                return nil
            }
            guard let pc = Int(pc), pc >= 0, numbers.count == 4, numbers[0] > 0, numbers[2] >= numbers[0] else {
                throw TestFailure("the source map's pc_pos_map entry \(pc) is not [line, column, end line, end column]")
            }
            spans.append((pc, numbers[0], numbers[1], numbers[2]))
        }
        let lastLine = spans.map(\.endLine).max() ?? 0
        var lines: [Int: Int] = [:]
        for span in spans where !(span.line == 1 && span.column == 0 && span.endLine == lastLine) { lines[span.pc] = span.line }
        self.lines = lines
    }
}

/// What a test run exercised of a contract's source: functions, branches (each JUMPI's two outcomes) and lines, from
/// the recorded transactions' instruction traces mapped through the compiler's source map. ``lcov`` writes it in
/// the format genhtml, Codecov and editors read (forge's and Hardhat's `coverage --report lcov`).
public struct ContractCoverage: Sendable, Hashable {
    /// A contract to measure: where it runs, its source and its source map.
    public struct Target: Sendable, Hashable {
        /// The source file's path as lcov's `SF:` names it.
        public var path: String
        /// The source text.
        public var source: String
        /// The deployed contract (its runtime code is what the map describes).
        public var address: Address
        public var sourceMap: SourceMap

        public init(path: String, source: String, address: Address, sourceMap: SourceMap) {
            self.path = path
            self.source = source
            self.address = address
            self.sourceMap = sourceMap
        }
    }

    /// A function of the source: its `def` line, the lines it spans, and in how many calls any of them ran.
    public struct Function: Sendable, Hashable {
        public var name: String
        public var line: Int
        public var lastLine: Int
        public var hits: Int
    }

    /// One JUMPI: its line, its number among the line's JUMPIs (lcov's block), and how often each way was taken.
    public struct Branch: Sendable, Hashable {
        public var line: Int
        public var block: Int
        public var pc: Int
        public var jumped: Int
        public var fellThrough: Int
    }

    public var path: String
    public var functions: [Function]
    public var branches: [Branch]
    /// Every line an instruction maps to → in how many calls (frames) it ran.
    public var lines: [Int: Int]

    /// The lcov record (`TN`, `SF`, `FN`/`FNDA`, `BRDA`, `DA`, the totals, `end_of_record`).
    public var lcov: String {
        var out = ["TN:", "SF:\(path)"]
        for f in functions { out.append("FN:\(f.line),\(f.name)") }
        for f in functions { out.append("FNDA:\(f.hits),\(f.name)") }
        out.append("FNF:\(functions.count)")
        out.append("FNH:\(functions.filter { $0.hits > 0 }.count)")
        for b in branches {
            let reached = b.jumped + b.fellThrough > 0
            out.append("BRDA:\(b.line),\(b.block),0,\(reached ? String(b.jumped) : "-")")
            out.append("BRDA:\(b.line),\(b.block),1,\(reached ? String(b.fellThrough) : "-")")
        }
        out.append("BRF:\(branches.count * 2)")
        out.append("BRH:\(branches.reduce(0) { $0 + ($1.jumped > 0 ? 1 : 0) + ($1.fellThrough > 0 ? 1 : 0) })")
        for (line, hits) in lines.sorted(by: { $0.key < $1.key }) { out.append("DA:\(line),\(hits)") }
        out.append("LF:\(lines.count)")
        out.append("LH:\(lines.values.filter { $0 > 0 }.count)")
        out.append("end_of_record")
        return out.joined(separator: "\n") + "\n"
    }

    /// The hits of `line` (nil when no instruction maps to it).
    public func hits(line: Int) -> Int? { lines[line] }

    /// The function named `name`.
    public func function(_ name: String) -> Function? { functions.first { $0.name == name } }

    /// Several contracts' records, one lcov file.
    public static func lcov(_ reports: [ContractCoverage]) -> String { reports.map(\.lcov).joined() }

    /// The functions of a vyper source: each top-level `def`, spanning the lines up to the next top-level statement.
    static func vyperFunctions(_ source: String) -> [(name: String, line: Int, lastLine: Int)] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [(name: String, line: Int, lastLine: Int)] = []
        var current: (name: String, line: Int, lastLine: Int)?
        for (index, text) in lines.enumerated() {
            let number = index + 1
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let topLevel = !text.isEmpty && !text.hasPrefix(" ") && !text.hasPrefix("\t") && !trimmed.hasPrefix("#")
            if topLevel, let open = current {
                out.append(open)
                current = nil
            }
            if text.hasPrefix("def "), let paren = text.firstIndex(of: "(") {
                current = (String(text[text.index(text.startIndex, offsetBy: 4)..<paren]).trimmingCharacters(in: .whitespaces), number, number)
            } else if current != nil, !trimmed.isEmpty, !trimmed.hasPrefix("#") {
                current?.lastLine = number
            }
        }
        if let open = current { out.append(open) }
        return out
    }
}

extension TestChain {
    /// The coverage of `targets` by every transaction the bench recorded (or those `transactions` names): each is
    /// traced again (`debug_traceTransaction`'s struct logs), and the instructions each target's code ran — at any call
    /// depth, through CALL, STATICCALL, DELEGATECALL and CALLCODE — are mapped to lines through its source map.
    public func coverage(of targets: [ContractCoverage.Target], transactions: [RecordedTransaction]? = nil) async throws -> [ContractCoverage] {
        struct Tally {
            var lines: [Int: Int] = [:]
            var jumps: [Int: (jumped: Int, fellThrough: Int)] = [:]
        }
        var tallies = Array(repeating: Tally(), count: targets.count)
        let index = Dictionary(targets.enumerated().map { ($1.address, $0) }) { first, _ in first }
        for transaction in transactions ?? self.transactions {
            guard let to = transaction.request.to else { continue }  // creation code is not what the maps describe
            let trace: [(pc: Int, op: UInt8, depth: Int, stack: [UInt256]?)]
            do {
                trace = try await chain.trace(transaction: transaction.outcome.transactionHash).structLogs.map { ($0.pc, $0.op, $0.depth, $0.stack) }
            } catch {
                throw TestFailure("coverage: tracing \(transaction.outcome.transactionHash) failed: \(error)")
            }
            // The code each frame runs (nil: code no target has, or creation code), and the lines each frame ran.
            var frames: [Int?] = [index[to]]
            var frameLines: [Set<Int>] = [[]]
            var pending: Int??
            func close() {
                if let target = frames.removeLast() { for line in frameLines.last ?? [] { tallies[target].lines[line, default: 0] += 1 } }
                frameLines.removeLast()
            }
            for (position, step) in trace.enumerated() {
                while step.depth < frames.count { close() }
                if step.depth > frames.count {
                    frames.append(pending ?? nil)
                    frameLines.append(Set<Int>())
                }
                pending = nil
                guard let target = frames.last ?? nil else { continue }
                if let line = targets[target].sourceMap.lines[step.pc] { frameLines[frameLines.count - 1].insert(line) }
                switch step.op {
                case 0x57:  // JUMPI: which way the next step of this frame went
                    if position + 1 < trace.count, trace[position + 1].depth == step.depth {
                        let jumped = trace[position + 1].pc != step.pc + 1
                        var tally = tallies[target].jumps[step.pc] ?? (0, 0)
                        if jumped { tally.jumped += 1 } else { tally.fellThrough += 1 }
                        tallies[target].jumps[step.pc] = tally
                    }
                case 0xF1, 0xF2, 0xF4, 0xFA:  // CALL, CALLCODE, DELEGATECALL, STATICCALL: the callee is the second stack item
                    if let stack = step.stack, stack.count >= 2 {
                        let word = stack[stack.count - 2].bytes32
                        pending = .some(index[Address(bytes32: word)])
                    }
                default: break
                }
            }
            while !frames.isEmpty { close() }
        }
        var reports: [ContractCoverage] = []
        for (offset, target) in targets.enumerated() {
            let tally = tallies[offset]
            var lines: [Int: Int] = [:]
            for line in Set(target.sourceMap.lines.values) { lines[line] = tally.lines[line] ?? 0 }
            // Every JUMPI of the runtime code that maps to a line, run or not.
            var branches: [ContractCoverage.Branch] = []
            var blocks: [Int: Int] = [:]
            for pc in ContractCoverage.jumpIs(in: try await code(at: target.address, block: .latest)) {
                guard let line = target.sourceMap.lines[pc] else { continue }
                let counts = tally.jumps[pc] ?? (0, 0)
                branches.append(.init(line: line, block: blocks[line, default: 0], pc: pc, jumped: counts.jumped, fellThrough: counts.fellThrough))
                blocks[line, default: 0] += 1
            }
            let functions = ContractCoverage.vyperFunctions(target.source).map { f in
                let ran = (f.line...f.lastLine).map { tally.lines[$0] ?? 0 }.max() ?? 0
                return ContractCoverage.Function(name: f.name, line: f.line, lastLine: f.lastLine, hits: ran)
            }
            reports.append(ContractCoverage(path: target.path, functions: functions, branches: branches, lines: lines))
        }
        return reports
    }
}

extension ContractCoverage {
    /// The program counters of `code`'s JUMPI instructions (PUSH data skipped), in order.
    static func jumpIs(in code: [UInt8]) -> [Int] {
        var out: [Int] = []
        var pc = 0
        while pc < code.count {
            let op = code[pc]
            if op == 0x57 { out.append(pc) }
            pc += (0x60...0x7F).contains(op) ? Int(op) - 0x5F + 1 : 1
        }
        return out
    }
}
