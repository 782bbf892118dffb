import EthereumPrimitives
import Foundation

/// The whole gas report as one JSON document (`gas-report --json FILE`), for tools that keep or compare
/// reports. Its shape is fixed by `docs/gas-report.schema.json` (JSON Schema 2020-12) and versioned by
/// `schemaVersion`: a field is only ever added within a version; renaming or removing one makes a new
/// version.
public enum GasReportDocument {
    /// The version of the document's schema.
    public static let schemaVersion = 1

    /// Where the numbers came from.
    public enum Source: Sendable, Hashable {
        /// A fresh deterministic in-process chain per fork.
        case inProcess
        /// A node given by URL (only its origin is kept: a path or query may carry an API key).
        case rpc(ScenarioRPCRunner.Node)
    }

    /// The origin of a node URL (`https://host:8545`), without path, query or credentials.
    public static func origin(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
            return "(unparsed URL)"
        }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// The document.
    public static func json(
        scenario: Scenario, source: Source, contract: String, reports: [(fork: Hardfork?, report: GasReport)], pricing: GasPricing,
        l2: L2DataFee?
    ) -> JSONValue {
        json(scenarioName: scenario.name, steps: scenario.steps.count, source: source, contract: contract, reports: reports, pricing: pricing, l2: l2)
    }

    /// The document of a scenario of any contract (`ContractScenario`): `contract`, `forks` and `forkChanges` are the
    /// first contract's, as a reader of one contract expects, and `contracts` lists every contract with its reports
    /// (one per fork) and what moved between forks.
    public static func json(
        scenarioName: String, steps: Int, source: Source, contracts: [(name: String, reports: [(fork: Hardfork?, report: GasReport)])],
        pricing: GasPricing, l2: L2DataFee? = nil
    ) -> JSONValue {
        let first = contracts.first
        var document = json(
            scenarioName: scenarioName, steps: steps, source: source, contract: first?.name ?? "", reports: first?.reports ?? [],
            pricing: pricing, l2: l2)
        let all: [JSONValue] = contracts.map { contract in
            .object([
                ("name", .string(contract.name)),
                ("forks", .array(contract.reports.map { forkReport($0, pricing: pricing, l2: l2) })),
                ("forkChanges", .array(forkChanges(contract.reports).map(\.jsonValue))),
            ])
        }
        if case .object(var members) = document {
            members.append(("contracts", .array(all)))
            document = .object(members)
        }
        return document
    }

    /// What moved between each fork and the next (none for one fork, or a node's run).
    static func forkChanges(_ reports: [(fork: Hardfork?, report: GasReport)]) -> [ForkGasChange] {
        let named = reports.compactMap { entry in entry.fork.map { (fork: $0, report: entry.report) } }
        return named.count > 1 ? ForkGasReport(reports: named).changes : []
    }

    static func forkReport(_ entry: (fork: Hardfork?, report: GasReport), pricing: GasPricing, l2: L2DataFee?) -> JSONValue {
        .object([("fork", entry.fork.map { .string($0.name) } ?? .null)] + (entry.report.jsonValue(pricing: pricing, l2: l2).objectValue ?? []))
    }

    static func json(
        scenarioName: String, steps: Int, source: Source, contract: String, reports: [(fork: Hardfork?, report: GasReport)],
        pricing: GasPricing, l2: L2DataFee?
    ) -> JSONValue {
        var sourceMembers: [(key: String, value: JSONValue)]
        switch source {
        case .inProcess:
            sourceMembers = [("kind", .string("in-process"))]
        case .rpc(let node):
            sourceMembers = [("kind", .string("rpc")), ("origin", .string(origin(node.url))), ("chainId", .number(String(node.chainID)))]
            sourceMembers.append(("clientVersion", node.clientVersion.map(JSONValue.string) ?? .null))
        }
        var pricingMembers: [(key: String, value: JSONValue)] = [
            ("gasPriceWei", .string(pricing.gasPrice.description)), ("gasPriceGwei", .string(pricing.gasPriceGwei)),
        ]
        if let eth = pricing.ethPrice {
            pricingMembers.append(("ethPrice", .string(eth)))
            pricingMembers.append(("currency", .string(pricing.currency)))
        }
        let l2Value: JSONValue =
            l2.map { .object([("mode", .string($0.mode.rawValue)), ("priceWei", .string($0.price.description)), ("formula", .string($0.formula))]) }
            ?? .null
        let forks: [JSONValue] = reports.map { forkReport($0, pricing: pricing, l2: l2) }
        let changes = forkChanges(reports).map(\.jsonValue)
        return .object([
            ("schemaVersion", .number(String(schemaVersion))), ("generator", .string("carchain gas-report")),
            ("scenario", .object([("name", .string(scenarioName)), ("steps", .number(String(steps)))])),
            ("source", .object(sourceMembers)), ("contract", .string(contract)), ("pricing", .object(pricingMembers)), ("l2", l2Value),
            ("forks", .array(forks)), ("forkChanges", .array(changes)),
        ])
    }
}
