import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Foundation

/// Reading the signed EIP-7702 authorizations that `carchain tx sign --authorization` takes, in the two forms
/// `carchain tx authorize` prints: a JSON object with geth's field names (`chainId`, `address`, `nonce`, `yParity`,
/// `r`, `s`; a JSON array of them is accepted too), or the RLP hex of `[chain_id, address, nonce, y_parity, r, s]`.
enum AuthorizationInput {
    /// The authorizations in one `--authorization` value.
    static func parse(_ text: String) throws -> [SignedAuthorization] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            let json: JSONValue
            do { json = try JSONValue(parsing: trimmed) } catch { throw CLIError("--authorization is not valid JSON: \(error)") }
            do {
                if case .array = json { return try SignedAuthorization.list(json: json, path: "--authorization") }
                return [try SignedAuthorization(json: json, path: "--authorization")]
            } catch {
                throw CLIError(error.description)
            }
        }
        guard Hex.hasPrefix(trimmed) else {
            throw CLIError("--authorization must be a JSON object (as `carchain tx authorize` prints) or 0x RLP hex")
        }
        let bytes: [UInt8]
        do { bytes = try Hex.decode(trimmed) } catch { throw CLIError("--authorization is not hex: \(error)") }
        do {
            return [try RLP.decode(SignedAuthorization.self, from: bytes)]
        } catch {
            throw CLIError("--authorization is not an RLP authorization [chain_id, address, nonce, y_parity, r, s]: \(error)")
        }
    }
}
