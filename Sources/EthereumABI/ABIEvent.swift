import EthereumPrimitives

/// A contract event: the log it emits has topic 0 = keccak256(signature) (unless anonymous), one
/// topic per indexed parameter, and the other parameters ABI-encoded in the data.
public struct ABIEvent: Hashable, Sendable, CustomStringConvertible {
    /// The event's name.
    public var name: String
    /// The parameters, indexed and not, in declaration order.
    public var inputs: [ABIParameter]
    /// Anonymous events have no signature topic.
    public var anonymous: Bool

    /// Creates an event description.
    public init(name: String, inputs: [ABIParameter] = [], anonymous: Bool = false) {
        self.name = name
        self.inputs = inputs
        self.anonymous = anonymous
    }

    /// Parses a human-readable signature, e.g. `"event CarRented(string plate, string indexed userId)"`.
    public init(signature: String) throws(ABIError) {
        guard case .event(let e) = try ABIItem(signature: signature) else {
            throw .invalidSignature(signature, reason: "not an event (start it with \"event\")")
        }
        self = e
    }

    /// The canonical signature, `Name(type1,type2)`.
    public var signature: String { name + ABIType.tuple(inputs.map(\.type)).description }

    /// keccak256 of the signature: topic 0 of the event's logs (absent for anonymous events).
    public var topic0: Bytes32 { Keccak256.hash(signature) }

    /// The number of topics a log of this event has.
    public var topicCount: Int { inputs.filter(\.indexed).count + (anonymous ? 0 : 1) }

    /// The human-readable form.
    public var description: String {
        "event \(name)(" + inputs.map(\.description).joined(separator: ", ") + ")" + (anonymous ? " anonymous" : "")
    }

    /// Decodes a log of this event. Topic 0 must match (unless anonymous) and the topic count must be
    /// right; indexed elementary values are decoded from their topics, other indexed values are only
    /// available as their hash.
    public func decodeLog(topics: [Bytes32], data: some Collection<UInt8>, options: ABIDecodingOptions = .strict) throws(ABIError) -> ABIDecodedLog {
        guard topics.count == topicCount else {
            throw .noMatch("log has \(topics.count) topics, event \(signature) has \(topicCount)")
        }
        var topicIndex = 0
        if !anonymous {
            guard topics[0] == topic0 else { throw .noMatch("log topic 0 \(topics[0]) is not event \(signature)") }
            topicIndex = 1
        }
        let dataTypes = inputs.filter { !$0.indexed }.map(\.type)
        let dataValues = try ABIDecoder.decode(dataTypes, from: data, options: options)
        var dataIndex = 0
        var values: [ABILogValue] = []
        values.reserveCapacity(inputs.count)
        for input in inputs {
            if input.indexed {
                let topic = topics[topicIndex]
                topicIndex += 1
                if input.type.isElementary {
                    do {
                        values.append(.value(try ABIDecoder.decodeWord(input.type, topic)))
                    } catch {
                        throw .invalidData(offset: 0, path: "topic \(topicIndex - 1) (\(input.name))", reason: "\(error)")
                    }
                } else {
                    values.append(.hashed(topic))
                }
            } else {
                values.append(.value(dataValues[dataIndex]))
                dataIndex += 1
            }
        }
        return ABIDecodedLog(event: self, values: values)
    }

    /// Encodes a log of this event from one value per input: the topics and the data.
    public func encodeLog(_ values: [ABIValue]) throws(ABIError) -> (topics: [Bytes32], data: [UInt8]) {
        guard values.count == inputs.count else {
            throw .invalidValue(
                path: "event \(name)", type: .tuple(inputs.map(\.type)),
                reason: "expected \(inputs.count) values, got \(values.count)")
        }
        var topics: [Bytes32] = anonymous ? [] : [topic0]
        var dataValues: [ABIValue] = []
        var dataTypes: [ABIType] = []
        for (i, (input, value)) in zip(inputs, values).enumerated() {
            if input.indexed {
                do {
                    topics.append(try ABIEvent.topic(for: value, as: input.type))
                } catch {
                    throw ABIEvent.renamed(error, to: "argument \(i + 1)")
                }
            } else {
                dataValues.append(value)
                dataTypes.append(input.type)
            }
        }
        return (topics, try ABIEncoder.encode(dataValues, as: dataTypes))
    }

    private static func renamed(_ error: ABIError, to path: String) -> ABIError {
        if case .invalidValue(_, let type, let reason) = error { return .invalidValue(path: path, type: type, reason: reason) }
        return error
    }

    /// The topic of an indexed parameter: the ABI word for an elementary type; for `string` and `bytes`
    /// the keccak256 of the contents; for arrays and tuples the keccak256 of their in-place encoding
    /// (elements concatenated, each padded to 32 bytes, no offsets or lengths), as the Solidity ABI
    /// specification's "Encoding of Indexed Event Parameters" defines.
    public static func topic(for value: ABIValue, as type: ABIType) throws(ABIError) -> Bytes32 {
        // Check the value against the type with the ordinary encoder first.
        let encoded = try ABIEncoder.encode(value, as: type)
        if type.isElementary { return Bytes32(encoded) ?? .zero }
        var preimage: [UInt8] = []
        appendPreimage(value, nested: false, to: &preimage)
        return Keccak256.hash(preimage)
    }

    private static func appendPreimage(_ value: ABIValue, nested: Bool, to out: inout [UInt8]) {
        switch value {
        case .uint(let v), .int(let v):
            out += v.bigEndianBytes
        case .address(let a):
            out += a.bytes32.bytes
        case .bool(let b):
            out += [UInt8](repeating: 0, count: 31) + [b ? 1 : 0]
        case .fixedBytes(let b):
            out += b + [UInt8](repeating: 0, count: 32 - b.count)
        case .bytes(let b):
            out += b
            if nested { out += [UInt8](repeating: 0, count: ABIEncoder.paddedLength(b.count) - b.count) }
        case .string(let s):
            out += Array(s.utf8)
            if nested { out += [UInt8](repeating: 0, count: ABIEncoder.paddedLength(s.utf8.count) - s.utf8.count) }
        case .array(let items), .tuple(let items):
            for item in items { appendPreimage(item, nested: true, to: &out) }
        }
    }
}

/// The value of one event parameter in a decoded log.
public enum ABILogValue: Hashable, Sendable, CustomStringConvertible {
    /// The value (from the data, or from the topic of an indexed elementary parameter).
    case value(ABIValue)
    /// An indexed string, bytes, array or tuple: only its keccak256 hash is in the log.
    case hashed(Bytes32)

    /// The value, when the log holds it.
    public var value: ABIValue? { if case .value(let v) = self { return v } else { return nil } }

    public var description: String {
        switch self {
        case .value(let v): return v.description
        case .hashed(let h): return "hash \(h)"
        }
    }
}

/// A decoded log: the event and one value per parameter, in declaration order.
public struct ABIDecodedLog: Hashable, Sendable, CustomStringConvertible {
    /// The event the log matched.
    public var event: ABIEvent
    /// One value per `event.inputs` entry.
    public var values: [ABILogValue]

    /// Creates a decoded log.
    public init(event: ABIEvent, values: [ABILogValue]) {
        self.event = event
        self.values = values
    }

    /// The value of the parameter named `name`.
    public subscript(name: String) -> ABILogValue? {
        guard let i = event.inputs.firstIndex(where: { $0.name == name }) else { return nil }
        return values[i]
    }

    /// `Name(name=value, …)`.
    public var description: String {
        let args = zip(event.inputs, values).map { p, v in p.name.isEmpty ? v.description : "\(p.name)=\(v)" }
        return event.name + "(" + args.joined(separator: ", ") + ")"
    }
}
