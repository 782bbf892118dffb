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
    public func render(_ format: GasReportFormat, pricing: GasPricing = GasPricing(), l2: L2DataFee? = nil) -> String {
        switch format {
        case .table: return table(pricing, l2: l2).renderText() + "\n" + footer(pricing, l2: l2)
        case .markdown: return table(pricing, l2: l2).renderMarkdown() + "\n\n" + footer(pricing, l2: l2)
        case .json: return jsonValue(pricing: pricing, l2: l2).description
        }
    }

    private func table(_ pricing: GasPricing, l2: L2DataFee?) -> TextTable {
        let fiat = pricing.ethPriceMicros != nil
        var header = ["\(contract) contract", "", "", "", "", "", ""]
        var numeric = [false, true, true, true, true, true, true]
        if fiat {
            header.append("")
            numeric.append(true)
        }
        if l2 != nil {
            header.append("")
            numeric.append(true)
        }
        var table = TextTable(header: header, numeric: numeric)
        if let deploymentGas {
            var titles = ["Deployment Cost", "Deployment Size", "Runtime Size", "", "", "", "Fee (ETH)"]
            var values = [
                String(deploymentGas), deploymentSize.map(String.init) ?? "", runtimeSize.map(String.init) ?? "", "", "", "",
                pricing.feeEth(gas: deploymentGas),
            ]
            if fiat {
                titles.append("Fee (\(pricing.currency))")
                values.append(pricing.feeFiat(gas: deploymentGas) ?? "")
            }
            if let l2 {
                titles.append("L2 data fee (ETH)")
                values.append(deployment?.encoded.map { l2.meanFeeEth($0, calls: 1) } ?? "")
            }
            table.add(titles)
            table.add(values)
            table.rule()
        }
        var titles = ["Function Name", "Min", "Avg", "Median", "Max", "# Calls", "Avg fee (ETH)"]
        if fiat { titles.append("Avg fee (\(pricing.currency))") }
        if l2 != nil { titles.append("Avg L2 data fee (ETH)") }
        table.add(titles)
        for f in functions {
            var row = [f.name, String(f.min), String(f.avg), String(f.median), String(f.max), String(f.calls), pricing.feeEth(gas: f.avg)]
            if fiat { row.append(pricing.feeFiat(gas: f.avg) ?? "") }
            if let l2 { row.append(f.encoded.map { l2.meanFeeEth($0, calls: f.calls) } ?? "") }
            table.add(row)
        }
        return table
    }

    private func footer(_ pricing: GasPricing, l2: L2DataFee?) -> String {
        var price = "Gas price \(pricing.gasPriceGwei) gwei"
        if let eth = pricing.ethPrice { price += ", 1 ETH = \(eth) \(pricing.currency)" }
        var total = "Total: \(totalCalls) transactions\(deploymentGas == nil ? "" : " and the deployment"), \(totalGas) gas, "
        total += "\(pricing.feeEth(gas: totalGas)) ETH"
        if let fiat = pricing.feeFiat(gas: totalGas) { total += " (\(fiat) \(pricing.currency))" }
        var text = price + ". " + total + "."
        if let l2 {
            text += " L2 data (\(l2.mode), \(l2.priceGwei) gwei): \(l2.formula)."
        }
        return text
    }

    /// The report as JSON: `{"contract", "deployment": {"gas", "size", "feeWei", "feeEth", "feeFiat"}, "functions": {name:
    /// {"calls", "reverted", "min", "mean", "median", "max", "total", "meanFeeEth"…}}, "pricing", "totals"}`.
    public func jsonValue(pricing: GasPricing = GasPricing(), l2: L2DataFee? = nil) -> JSONValue {
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
            if let runtimeSize { deployment.append(("runtimeSize", .number(String(runtimeSize)))) }
            deployment += fees(deploymentGas, prefix: "")
            if let l2, let encoded = self.deployment?.encoded {
                deployment.append(("l2DataFeeWei", .string(l2.feeWei(encoded).description)))
            }
            if let breakdown = self.deployment?.breakdown { deployment.append(("breakdown", breakdown.jsonValue)) }
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
            var l2Members: [(key: String, value: JSONValue)] = []
            if let l2, let encoded = f.encoded {
                let mean = l2.feeWei(encoded) / UInt256(UInt64(Swift.max(1, f.calls)))
                l2Members.append(("meanL2DataFeeWei", .string(mean.description)))
            }
            if let breakdown = f.breakdown { l2Members.append(("breakdown", breakdown.jsonValue)) }
            return (f.name, .object(stats + fees(f.avg, prefix: "mean") + l2Members))
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
