import ArgumentParser
import CarChainKit
import EthereumPrimitives

/// The option combinations `gas-report` refuses, each with one line that says why, before anything runs.
struct GasReportValidation {
    let command: GasReportCommand

    init(_ command: GasReportCommand) { self.command = command }

    func check() throws {
        let c = command
        if c.scenario != nil && c.seedScenario { throw ValidationError("give either --scenario FILE or --seed-scenario, not both") }
        do { _ = try GasPricing(gasPrice: c.gasPrice, ethPrice: c.ethPrice) } catch { throw ValidationError(error.description) }
        if c.forks != nil && c.hardfork != nil { throw ValidationError("give either --hardfork or --forks, not both") }
        if let forks = c.forks { _ = try Self.forkNames(forks) }
        if c.rpc != nil {
            if c.hardfork != nil || c.forks != nil {
                throw ValidationError("--rpc reports the node's own fork: drop --hardfork/--forks (run without --rpc to choose forks)")
            }
            if c.compare != nil { throw ValidationError("--compare runs on in-process chains: it cannot be combined with --rpc") }
        } else {
            if c.chainId != nil { throw ValidationError("--chain-id applies to --rpc only") }
        }
        try OptionRanges.chainID.check(c.chainId)
        try OptionRanges.timeout.check(c.timeout)
        if c.compare != nil {
            for (given, name) in [(c.forks, "--forks"), (c.snapshot, "--snapshot"), (c.jsonFile, "--json"), (c.check, "--check"), (c.diff, "--diff"), (c.chart, "--chart")]
            where given != nil {
                throw ValidationError("--compare prints two artifacts side by side: it cannot be combined with \(name)")
            }
        }
        if c.compare != nil && c.l2 != nil { throw ValidationError("--compare prints two artifacts side by side: it cannot be combined with --l2") }
        if c.steps && c.forks != nil { throw ValidationError("--steps lists one run's steps: it cannot be combined with --forks") }
        if c.steps && (c.check != nil || c.diff != nil) {
            throw ValidationError("--check and --diff print the changes instead of the report: drop --steps")
        }
        if let tolerance = c.tolerance {
            guard c.check != nil else { throw ValidationError("--tolerance applies to --check only") }
            guard tolerance.isFinite, (0...1000).contains(tolerance) else {
                throw ValidationError("--tolerance must be 0 to 1000 percent, got \(tolerance)")
            }
        }
        switch c.l2 {
        case nil:
            if c.l1BaseFee != nil || c.blobBaseFee != nil { throw ValidationError("--l1-base-fee and --blob-base-fee need --l2 calldata or --l2 blob") }
        case .calldata?:
            if c.blobBaseFee != nil { throw ValidationError("--blob-base-fee applies to --l2 blob, not --l2 calldata") }
        case .blob?:
            if c.l1BaseFee != nil { throw ValidationError("--l1-base-fee applies to --l2 calldata, not --l2 blob") }
        }
        _ = try Self.l2Fee(c)
        if let chart = c.chart, !chart.lowercased().hasSuffix(".svg") { throw ValidationError("--chart writes SVG: give a file name ending in .svg") }
        let outputs = [c.snapshot, c.jsonFile, c.chart].compactMap { $0 }
        if Set(outputs).count != outputs.count { throw ValidationError("--snapshot, --json and --chart must name different files") }
        for input in [c.check, c.diff].compactMap({ $0 }) where outputs.contains(input) {
            throw ValidationError("\(input) is both read (--check/--diff) and written: name another file")
        }
    }

    /// `cancun,prague` → the names, checked for duplicates (whether each fork exists is checked when the
    /// artifact is known).
    static func forkNames(_ text: String) throws -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
            throw ValidationError("--forks takes fork names separated by commas, e.g. cancun,prague,osaka")
        }
        var seen: Set<Hardfork> = []
        for name in names {
            guard let fork = Hardfork(name: name) else {
                throw ValidationError("--forks: unknown hardfork \(String(reflecting: name)) (e.g. byzantium, london, shanghai, cancun, prague, osaka)")
            }
            guard seen.insert(fork).inserted else { throw ValidationError("--forks names \(fork.name) twice") }
        }
        return names
    }

    /// The L2 data-fee estimator the options ask for, if any.
    static func l2Fee(_ c: GasReportCommand) throws -> L2DataFee? {
        guard let mode = c.l2 else { return nil }
        let (option, text, fallback) =
            mode == .calldata ? ("--l1-base-fee", c.l1BaseFee, "1gwei") : ("--blob-base-fee", c.blobBaseFee, "1wei")
        do {
            return L2DataFee(mode: mode, price: try Units.parse(text ?? fallback))
        } catch {
            throw ValidationError("\(option) must be 0 to 2^256-1 wei; a number with a unit (20gwei, 1.5ether) or wei: \(error)")
        }
    }
}
