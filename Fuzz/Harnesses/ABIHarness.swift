import EthereumABI
import EthereumPrimitives

extension FuzzHarness {
    /// The type lists the ABI harness decodes against: scalars of every kind and width class, and nested dynamic
    /// types (arrays of tuples of strings, fixed arrays of dynamic arrays, tuples in tuples), where offsets are
    /// relative to different bases. Order matters to saved inputs: append only.
    public static let abiSignatures = [
        "(uint256,address,bool,bytes32)",
        "(uint8,int8,int256,bytes1,bytes31)",
        "(bytes,string)",
        "(uint256[],address[3],string[])",
        "((uint256,string)[],bytes32[2])",
        "(string[][],(bytes,uint64[3])[2])",
        "(int24,bytes[],(bool,(string,address[]))[])",
        "(uint256[][2][],(string,(bytes,(uint8[],string)[])))",
        "((bytes[2],string)[2][])",
        "(string,uint256,(address,uint96)[],bytes4)",
    ]

    private static let abiTypes: [[ABIType]] = abiSignatures.map { (try? ABIType.parseList($0)) ?? [] }

    /// The first byte picks a mode, the second a signature and options; the rest is the data.
    /// - mode 0–3: `ABIDecoder.decode` (strict, or lenient when the second byte is odd). Strict success means
    ///   the input's prefix is the canonical encoding: `encode(decode(x))` is that prefix. Lenient success
    ///   re-encodes to a canonical encoding that strict decoding reads back to the same values.
    /// - mode 4: the rest as a type or signature text (`ABIType(parsing:)`, `ABIFunction(signature:)`,
    ///   `parseList`): a parsed type prints to text that parses back to the same type.
    /// - mode 5: the rest as a JSON ABI (`ContractABI(jsonData:)`), whose JSON form parses back to it.
    /// - mode 6: the rest as revert data (`RevertReason(data:)`) with the CarChain-like custom errors.
    static func abi(_ data: [UInt8]) throws(FuzzInvariantFailure) {
        guard data.count >= 2 else { return }
        let mode = data[0] % 8
        let selector = Int(data[1] >> 1)
        let payload = Array(data[2...])
        switch mode {
        case 4: try abiTypeText(String(decoding: payload, as: UTF8.self))
        case 5: try abiJSON(payload)
        case 6: _ = RevertReason(data: payload, errors: abiErrors).description
        default: try abiDecode(abiTypes[selector % abiTypes.count], payload, lenient: data[1] & 1 == 1)
        }
    }

    private static func abiDecode(_ types: [ABIType], _ payload: [UInt8], lenient: Bool) throws(FuzzInvariantFailure) {
        let values: [ABIValue]
        do { values = try ABIDecoder.decode(types, from: payload, options: lenient ? .lenient : .strict) } catch {
            _ = String(describing: error)
            return
        }
        _ = values.map(\.description)
        let encoded: [UInt8]
        do { encoded = try ABIEncoder.encode(values, as: types) } catch {
            throw FuzzInvariantFailure(.abi, "decoded values do not encode as \(types): \(error)")
        }
        if !lenient {
            guard encoded.count <= payload.count, encoded[...] == payload[..<encoded.count] else {
                throw FuzzInvariantFailure(
                    .abi, "strict decode→encode is not the input's prefix for \(types): \(Hex.encode(payload))")
            }
        }
        let again: [ABIValue]
        do { again = try ABIDecoder.decode(types, from: encoded) } catch {
            throw FuzzInvariantFailure(.abi, "re-encoded values do not decode strictly: \(error)")
        }
        guard again == values else { throw FuzzInvariantFailure(.abi, "decode(encode(v)) != v for \(types)") }
    }

    private static func abiTypeText(_ text: String) throws(FuzzInvariantFailure) {
        if let type = try? ABIType(parsing: text) {
            guard let reparsed = try? ABIType(parsing: type.description), reparsed == type else {
                throw FuzzInvariantFailure(.abi, "type \(type) does not parse back from its description")
            }
            _ = type.isDynamic
            if (try? type.validate()) != nil { _ = type.headSize }
        }
        if let list = try? ABIType.parseList(text) {
            guard let reparsed = try? ABIType.parseList(ABIType.tuple(list).description), reparsed == list else {
                throw FuzzInvariantFailure(.abi, "type list \(list) does not parse back from its description")
            }
        }
        if let function = try? ABIFunction(signature: text) {
            guard let reparsed = try? ABIFunction(signature: function.signature), reparsed.signature == function.signature else {
                throw FuzzInvariantFailure(.abi, "function \(function.signature) does not parse back")
            }
            _ = function.selector
        }
        if let event = try? ABIEvent(signature: text) { _ = event.topic0 }
    }

    private static func abiJSON(_ payload: [UInt8]) throws(FuzzInvariantFailure) {
        guard let abi = try? ContractABI(jsonData: payload) else { return }
        let json = abi.jsonValue.description
        guard let reparsed = try? ContractABI(json: json), reparsed == abi else {
            throw FuzzInvariantFailure(.abi, "JSON ABI does not parse back from its JSON form: \(json.prefix(200))")
        }
        for function in abi.functions { _ = function.selector }
        for event in abi.events { _ = event.topic0 }
    }

    private static let abiErrors: [ABICustomError] = [
        "CarNotAvailable(uint256)", "InsufficientCredit(address,uint256,uint256)", "Unauthorized(string,bytes[])",
    ].compactMap { try? ABICustomError(signature: $0) }
}
