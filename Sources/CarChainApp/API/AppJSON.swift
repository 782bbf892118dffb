import CarChainKit
import EthereumPrimitives
import Foundation

/// The JSON shapes of the app API's answers that more than one endpoint sends.
enum AppJSON {
    /// `{latitude, longitude}`.
    static func point(_ point: GeoPoint) -> JSONValue {
        .object([("latitude", .number(String(point.latitude))), ("longitude", .number(String(point.longitude)))])
    }

    /// A car's status as the page shows it: `available`, `rented`, `mine` (rented by `viewer`), `off-chain`.
    static func status(_ availability: CarAvailability, viewer: String) -> String {
        switch availability {
        case .available: return "available"
        case .rented(let renter): return !viewer.isEmpty && renter.utf8.elementsEqual(viewer.utf8) ? "mine" : "rented"
        case .notOnChain: return "off-chain"
        }
    }

    /// One car of `GET /cars`: the registry record, the status for `viewer`, the distance, and the renter's uid
    /// when `showsRenter` (the manager).
    static func car(_ row: FleetListingEntry, viewer: String, showsRenter: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("plate", .string(row.car.plate)), ("latitude", .number(String(row.car.latitude))),
            ("longitude", .number(String(row.car.longitude))),
            ("status", .string(status(row.availability, viewer: viewer))),
        ]
        if let distance = row.distance { members.append(("distanceMetres", .number(String(Int(distance.rounded()))))) }
        if showsRenter, case .rented(let renter) = row.availability { members.append(("renter", .string(renter))) }
        return .object(members)
    }

    /// A fee quote: gas (estimate and limit), gas price, the fee in wei, ETH and (with an ETH price) USD.
    static func quote(_ prepared: CarChainTransactionRunner.Prepared, pricing: GasPricing) -> JSONValue {
        .object([
            ("action", .string(prepared.operation.functionName)),
            ("gas", .number(String(prepared.estimatedGas))),
            ("gasLimit", .number(String(prepared.gasLimit))),
            ("gasPriceWei", .string(prepared.gasPrice.description)),
            ("gasPriceGwei", .string(pricing.gasPriceGwei)),
            ("feeWei", .string(pricing.feeWei(gas: prepared.estimatedGas).description)),
            ("feeEth", .string(pricing.feeEth(gas: prepared.estimatedGas))),
            ("feeUsd", pricing.feeFiat(gas: prepared.estimatedGas).map { .string($0) } ?? .null),
            ("ethPrice", pricing.ethPrice.map { .string($0) } ?? .null),
        ])
    }
}
