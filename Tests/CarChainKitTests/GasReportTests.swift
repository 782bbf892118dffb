import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation
import Testing

@Suite struct GasReportTests {
    static let observations: [GasObservation] = [
        GasObservation(function: "rentCar", gasUsed: 40962),
        GasObservation(function: "rentCar", gasUsed: 27346, succeeded: false),
        GasObservation(function: "rentCar", gasUsed: 40988),
        GasObservation(function: "rentCar", gasUsed: 32037, succeeded: false),
        GasObservation(function: "addCredit", gasUsed: 29838),
        GasObservation(function: "addCredit", gasUsed: 29838),
        GasObservation(function: "addCredit", gasUsed: 29839),
    ]

    @Test func statisticsFollowForge() throws {
        let report = GasReport(contract: "project", deploymentGas: 1_111_249, deploymentSize: 4622, observations: Self.observations)
        #expect(report.functions.map(\.name) == ["addCredit", "rentCar"])
        let rent = try #require(report.function("rentCar"))
        #expect(rent.calls == 4)
        #expect(rent.reverted == 2)
        #expect(rent.min == 27346)
        #expect(rent.max == 40988)
        // Mean rounded down: (40962 + 27346 + 40988 + 32037) / 4 = 141333 / 4 = 35333.25.
        #expect(rent.avg == 35333)
        // Even count: the integer mean of the two middle values (32037, 40962) = 36499.5 → 36499.
        #expect(rent.median == 36499)
        #expect(rent.total == 141_333)
        let credit = try #require(report.function("addCredit"))
        #expect(credit.median == 29838)  // odd count: the middle value
        #expect(credit.avg == 29838)  // 89515 / 3 = 29838.33
        #expect(report.totalCalls == 7)
        #expect(report.totalGas == 1_111_249 + 141_333 + 89515)
        #expect(report.function("registerNewCar") == nil)
    }

    @Test func singleObservationAndNoObservations() throws {
        let one = GasReport(contract: "c", observations: [GasObservation(function: "f", gasUsed: 7)])
        let f = try #require(one.function("f"))
        #expect([f.min, f.avg, f.median, f.max] == [7, 7, 7, 7])
        let none = GasReport(contract: "c", observations: [])
        #expect(none.functions.isEmpty)
        #expect(none.totalGas == 0)
        #expect(none.render(.table).contains("Total: 0 transactions"))
    }

    @Test func pricingParsesAndFormatsExactly() throws {
        let pricing = try GasPricing(gasPrice: "1gwei", ethPrice: "3500.25")
        #expect(pricing.gasPrice == UInt256(1_000_000_000 as UInt64))
        #expect(pricing.ethPriceMicros == UInt256(3_500_250_000 as UInt64))
        #expect(pricing.ethPrice == "3500.25")
        #expect(pricing.feeEth(gas: 40962) == "0.000040962")
        // 0.000040962 ETH × 3500.25 = 0.14337724… → 0.1434
        #expect(pricing.feeFiat(gas: 40962) == "0.1434")
        #expect(try GasPricing(gasPrice: "0.5 gwei").gasPriceGwei == "0.5")
        #expect(try GasPricing(gasPrice: "30000000000").gasPriceGwei == "30")
        #expect(try GasPricing(gasPrice: "1gwei", ethPrice: "3000").feeFiat(gas: 1_000_000) == "3.0000")
        #expect(GasPricing().feeFiat(gas: 1) == nil)
        for bad in ["", "abc", "1.2.3", "-5", "1e3", "1.1234567"] {
            #expect(throws: GasPricingError.self) { try GasPricing(gasPrice: "1gwei", ethPrice: bad) }
        }
        #expect(throws: GasPricingError.self) { try GasPricing(gasPrice: "1 furlong") }
        let error = GasPricingError.invalidEthPrice("abc")
        #expect(error.description.contains("\"abc\""))
    }

    @Test func tableHasForgeColumnsAndFees() throws {
        let report = GasReport(contract: "project", deploymentGas: 1_111_249, deploymentSize: 4622, observations: Self.observations)
        let text = report.render(.table, pricing: try GasPricing(gasPrice: "2gwei", ethPrice: "3000"))
        for needle in [
            "project contract", "Deployment Cost", "Deployment Size", "1111249", "4622", "Function Name", "Min", "Avg", "Median",
            "Max", "# Calls", "Avg fee (ETH)", "Avg fee (USD)", "0.000070666", "Gas price 2 gwei, 1 ETH = 3000 USD",
        ] {
            #expect(text.contains(needle), "missing \(needle) in\n\(text)")
        }
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("╭") == true)
        // Every row of the box has the same width.
        let boxed = lines.filter { $0.hasPrefix("│") || $0.hasPrefix("├") || $0.hasPrefix("╭") || $0.hasPrefix("╰") }
        #expect(Set(boxed.map(\.count)).count == 1)
        let rentRow = try #require(lines.first { $0.contains("rentCar") })
        let cells = rentRow.split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells == ["rentCar", "27346", "35333", "36499", "40988", "4", "0.000070666", "0.2120"])
    }

    @Test func markdownIsAGitHubTable() throws {
        let report = GasReport(contract: "project", deploymentGas: 100, deploymentSize: 10, observations: Self.observations)
        let text = report.render(.markdown)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("| project contract |"))
        #expect(lines[1] == "|---|---:|---:|---:|---:|---:|---:|")
        #expect(lines.contains("| addCredit | 29838 | 29838 | 29838 | 29839 | 3 | 0.000029838 |"))
        #expect(lines.contains("| Deployment Cost | Deployment Size | Runtime Size |  |  |  | Fee (ETH) |"))
        #expect(!text.contains("│"))
    }

    @Test func jsonHasForgeFieldNames() throws {
        let report = GasReport(contract: "project", deploymentGas: 100, deploymentSize: 10, observations: Self.observations)
        let text = report.render(.json, pricing: try GasPricing(gasPrice: "1gwei", ethPrice: "2000"))
        let value = try JSONValue(parsing: text)
        #expect(value["contract"] == .string("project"))
        #expect(value["deployment"]?["gas"] == .number("100"))
        #expect(value["deployment"]?["size"] == .number("10"))
        let rent = try #require(value["functions"]?["rentCar"])
        #expect(rent["calls"] == .number("4"))
        #expect(rent["reverted"] == .number("2"))
        #expect(rent["min"] == .number("27346"))
        #expect(rent["mean"] == .number("35333"))
        #expect(rent["median"] == .number("36499"))
        #expect(rent["max"] == .number("40988"))
        #expect(rent["meanFeeEth"] == .string("0.000035333"))
        #expect(rent["meanFeeFiat"] == .string("0.0707"))
        #expect(value["pricing"]?["gasPriceWei"] == .string("1000000000"))
        #expect(value["totals"]?["transactions"] == .number("7"))
    }

    @Test func comparisonShowsChangeInPercent() throws {
        let ours = GasReport(
            contract: "project", deploymentGas: 1_111_249, deploymentSize: 4622,
            observations: [GasObservation(function: "rentCar", gasUsed: 40962), GasObservation(function: "getOnlyOurs", gasUsed: 1)])
        let seed = GasReport(
            contract: "seed", deploymentGas: 1_176_506, deploymentSize: 4953, observations: [GasObservation(function: "rentCar", gasUsed: 82453)])
        let comparison = GasReportComparison(candidate: ours, baseline: seed)
        #expect(comparison.functionNames == ["getOnlyOurs", "rentCar"])
        // (40962 − 82453) / 82453 = −50.32 %
        #expect(GasReportComparison.formatChange(GasReportComparison.change(from: 82453, to: 40962)) == "-50.3%")
        #expect(GasReportComparison.formatChange(GasReportComparison.change(from: 100, to: 102)) == "+2.0%")
        #expect(GasReportComparison.formatChange(GasReportComparison.change(from: 0, to: 5)) == "—")
        #expect(GasReportComparison.formatChange(GasReportComparison.change(from: 100, to: 100)) == "0.0%")
        let text = comparison.render(.table)
        for needle in ["Deployment", "project", "seed", "1111249", "1176506", "-5.5%", "4622", "4953", "-6.7%", "-50.3%", "change"] {
            #expect(text.contains(needle), "missing \(needle) in\n\(text)")
        }
        let json = try JSONValue(parsing: comparison.render(.json))
        #expect(json["change"]?["functions"]?["rentCar"]?["mean"] == .number("-50.32"))
        #expect(json["change"]?["functions"]?["getOnlyOurs"]?["mean"] == .null)
        #expect(json["change"]?["deployment"]?["gas"] == .number("-5.55"))
        #expect(json["candidate"]?["contract"] == .string("project"))
        #expect(json["baseline"]?["contract"] == .string("seed"))
        let markdown = comparison.render(.markdown)
        #expect(markdown.contains("| Deployment | project | seed | Change |"))
        #expect(markdown.contains("| rentCar | project | 40962 | 40962 | 40962 | 40962 | 1 |"))
    }
}
