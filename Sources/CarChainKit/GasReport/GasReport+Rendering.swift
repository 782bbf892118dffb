import EthereumPrimitives

/// How a gas report is printed.
public enum GasReportFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Box-drawn text for a terminal, in forge's layout.
    case table
    /// A GitHub-flavoured Markdown table (for a README or a pull request).
    case markdown
    /// One JSON document (forge's field names: calls, min, mean, median, max; deployment gas and size).
    case json

    public var description: String { rawValue }
}

extension GasReport {
    /// The report in `format`, with fees at `pricing`.
    public func render(_ format: GasReportFormat, pricing: GasPricing = GasPricing()) -> String {
        switch format {
        case .table: return table(pricing).renderText() + "\n" + footer(pricing)
        case .markdown: return table(pricing).renderMarkdown() + "\n\n" + footer(pricing)
        case .json: return jsonValue(pricing: pricing).description
        }
    }

    private func table(_ pricing: GasPricing) -> TextTable {
        let fiat = pricing.ethPriceMicros != nil
        var header = ["\(contract) contract", "", "", "", "", "", ""]
        var numeric = [false, true, true, true, true, true, true]
        if fiat {
            header.append("")
            numeric.append(true)
        }
        var table = TextTable(header: header, numeric: numeric)
        if let deploymentGas {
            var titles = ["Deployment Cost", "Deployment Size", "", "", "", "", "Fee (ETH)"]
            var values = [String(deploymentGas), deploymentSize.map(String.init) ?? "", "", "", "", "", pricing.feeEth(gas: deploymentGas)]
            if fiat {
                titles.append("Fee (\(pricing.currency))")
                values.append(pricing.feeFiat(gas: deploymentGas) ?? "")
            }
            table.add(titles)
            table.add(values)
            table.rule()
        }
        var titles = ["Function Name", "Min", "Avg", "Median", "Max", "# Calls", "Avg fee (ETH)"]
        if fiat { titles.append("Avg fee (\(pricing.currency))") }
        table.add(titles)
        for f in functions {
            var row = [f.name, String(f.min), String(f.avg), String(f.median), String(f.max), String(f.calls), pricing.feeEth(gas: f.avg)]
            if fiat { row.append(pricing.feeFiat(gas: f.avg) ?? "") }
            table.add(row)
        }
        return table
    }

    private func footer(_ pricing: GasPricing) -> String {
        var price = "Gas price \(pricing.gasPriceGwei) gwei"
        if let eth = pricing.ethPrice { price += ", 1 ETH = \(eth) \(pricing.currency)" }
        var total = "Total: \(totalCalls) transactions\(deploymentGas == nil ? "" : " and the deployment"), \(totalGas) gas, "
        total += "\(pricing.feeEth(gas: totalGas)) ETH"
        if let fiat = pricing.feeFiat(gas: totalGas) { total += " (\(fiat) \(pricing.currency))" }
        return price + ". " + total + "."
    }

    /// The report as JSON: `{"contract", "deployment": {"gas", "size", "feeWei", "feeEth", "feeFiat"}, "functions": {name:
    /// {"calls", "reverted", "min", "mean", "median", "max", "total", "meanFeeEth"…}}, "pricing", "totals"}`.
    public func jsonValue(pricing: GasPricing = GasPricing()) -> JSONValue {
        func fees(_ gas: UInt64, prefix: String) -> [(key: String, value: JSONValue)] {
            let name = prefix.isEmpty ? "fee" : prefix + "Fee"
            var out: [(key: String, value: JSONValue)] = [
                (name + "Wei", .string(pricing.feeWei(gas: gas).description)),
                (name + "Eth", .string(pricing.feeEth(gas: gas))),
            ]
            if let fiat = pricing.feeFiat(gas: gas) { out.append((name + "Fiat", .string(fiat))) }
            return out
        }
        var members: [(key: String, value: JSONValue)] = [("contract", .string(contract))]
        if let deploymentGas {
            var deployment: [(key: String, value: JSONValue)] = [("gas", .number(String(deploymentGas)))]
            if let deploymentSize { deployment.append(("size", .number(String(deploymentSize)))) }
            deployment += fees(deploymentGas, prefix: "")
            members.append(("deployment", .object(deployment)))
        } else {
            members.append(("deployment", .null))
        }
        let functionMembers: [(key: String, value: JSONValue)] = functions.map { f in
            let stats: [(key: String, value: JSONValue)] = [
                ("calls", .number(String(f.calls))), ("reverted", .number(String(f.reverted))),
                ("min", .number(String(f.min))), ("mean", .number(String(f.avg))), ("median", .number(String(f.median))),
                ("max", .number(String(f.max))), ("total", .number(String(f.total))),
            ]
            return (f.name, .object(stats + fees(f.avg, prefix: "mean")))
        }
        members.append(("functions", .object(functionMembers)))
        var pricingMembers: [(key: String, value: JSONValue)] = [
            ("gasPriceWei", .string(pricing.gasPrice.description)), ("gasPriceGwei", .string(pricing.gasPriceGwei)),
        ]
        if let eth = pricing.ethPrice {
            pricingMembers.append(("ethPrice", .string(eth)))
            pricingMembers.append(("currency", .string(pricing.currency)))
        }
        members.append(("pricing", .object(pricingMembers)))
        members.append(
            ("totals", .object([("transactions", .number(String(totalCalls))), ("gas", .number(String(totalGas)))] + fees(totalGas, prefix: ""))))
        return .object(members)
    }
}
