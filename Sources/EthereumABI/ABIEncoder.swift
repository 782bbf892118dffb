import EthereumPrimitives

/// The contract ABI's standard (non-packed) encoding.
///
/// Values are checked against their types first (widths, counts, lengths), with errors that name the
/// argument, e.g. `argument 2 (uint8): 300 does not fit`; then the exact output size is known and the
/// encoding is written into one buffer, with no intermediate arrays.
public enum ABIEncoder {
    /// Encodes `values` as the tuple of `types` (the layout of function arguments and return values).
    public static func encode(_ values: [ABIValue], as types: [ABIType]) throws(ABIError) -> [UInt8] {
        for type in types { try type.validate() }
        guard values.count == types.count else {
            throw .invalidValue(
                path: "arguments", type: .tuple(types),
                reason: "expected \(types.count) value\(types.count == 1 ? "" : "s"), got \(values.count)")
        }
        var size = 0
        for (i, (value, type)) in zip(values, types).enumerated() {
            size += try headAndTailSize(value, type, path: { "argument \(i + 1)" })
        }
        var out = [UInt8](repeating: 0, count: size)
        out.withUnsafeMutableBytes { buffer in
            _ = writeTuple(values, types, buffer, base: 0)
        }
        return out
    }

    /// Encodes one value as a one-element tuple (`encode([value], as: [type])`).
    public static func encode(_ value: ABIValue, as type: ABIType) throws(ABIError) -> [UInt8] {
        try encode([value], as: [type])
    }

    /// The 4-byte selector of `signature` followed by the encoded arguments: a call's data.
    public static func encodeCall(selector: [UInt8], _ values: [ABIValue], as types: [ABIType]) throws(ABIError) -> [UInt8] {
        selector + (try encode(values, as: types))
    }

    // MARK: Checking and sizing

    /// Bytes a value adds to its enclosing tuple: head plus (for a dynamic type) tail.
    private static func headAndTailSize(_ value: ABIValue, _ type: ABIType, path: () -> String) throws(ABIError) -> Int {
        let size = try check(value, type, path: path)
        return type.isDynamic ? 32 + size : size
    }

    /// Checks `value` against `type` and returns the size of its encoding: the static encoding for a
    /// static type, the tail (without the offset word) for a dynamic one.
    private static func check(_ value: ABIValue, _ type: ABIType, path: () -> String) throws(ABIError) -> Int {
        func mismatch() -> ABIError {
            .invalidValue(path: path(), type: type, reason: "expected \(ABIEncoder.expectation(for: type)), got \(value.kindName)")
        }
        switch type {
        case .uint(let bits):
            guard case .uint(let v) = value else { throw mismatch() }
            if v.significantBitCount > bits { throw .invalidValue(path: path(), type: type, reason: "\(v) does not fit") }
            return 32
        case .int(let bits):
            guard case .int(let v) = value else { throw mismatch() }
            if bits < 256 && v.signExtend(byteIndex: UInt256(bits / 8 - 1)) != v {
                throw .invalidValue(path: path(), type: type, reason: "\(ABIValue.signedDecimal(v)) does not fit")
            }
            return 32
        case .address:
            guard case .address = value else { throw mismatch() }
            return 32
        case .bool:
            guard case .bool = value else { throw mismatch() }
            return 32
        case .fixedBytes(let n):
            guard case .fixedBytes(let b) = value else { throw mismatch() }
            if b.count != n { throw .invalidValue(path: path(), type: type, reason: "expected \(n) bytes, got \(b.count)") }
            return 32
        case .function:
            guard case .fixedBytes(let b) = value else { throw mismatch() }
            if b.count != 24 {
                throw .invalidValue(path: path(), type: type, reason: "expected 24 bytes (an address and a selector), got \(b.count)")
            }
            return 32
        case .bytes:
            guard case .bytes(let b) = value else { throw mismatch() }
            return 32 + paddedLength(b.count)
        case .string:
            guard case .string(let s) = value else { throw mismatch() }
            return 32 + paddedLength(s.utf8.count)
        case .array(let element, let count):
            guard case .array(let items) = value else { throw mismatch() }
            if let count, items.count != count {
                throw .invalidValue(path: path(), type: type, reason: "expected \(count) elements, got \(items.count)")
            }
            var size = count == nil ? 32 : 0
            for (i, item) in items.enumerated() {
                size += try headAndTailSize(item, element, path: { path() + "[\(i)]" })
            }
            return size
        case .tuple(let components):
            guard case .tuple(let items) = value else { throw mismatch() }
            if items.count != components.count {
                throw .invalidValue(path: path(), type: type, reason: "expected \(components.count) components, got \(items.count)")
            }
            var size = 0
            for (i, (item, component)) in zip(items, components).enumerated() {
                size += try headAndTailSize(item, component, path: { path() + ".\(i)" })
            }
            return size
        }
    }

    static func expectation(for type: ABIType) -> String {
        switch type {
        case .uint: return "an unsigned integer"
        case .int: return "a signed integer"
        case .address: return "an address"
        case .bool: return "a bool"
        case .fixedBytes(let n): return "\(n) bytes"
        case .function: return "24 bytes (an address and a selector)"
        case .bytes: return "a byte string"
        case .string: return "a string"
        case .array(_, let count): return count.map { "an array of \($0)" } ?? "an array"
        case .tuple(let c): return "a tuple of \(c.count)"
        }
    }

    @inline(__always)
    static func paddedLength(_ n: Int) -> Int { (n + 31) & ~31 }

    // MARK: Writing (values already checked)

    /// Writes `value` at `position`: inline for a static type, the tail for a dynamic one. Returns the
    /// bytes written. The buffer is zero-filled, so only non-zero parts are stored.
    private static func write(_ value: ABIValue, _ type: ABIType, _ out: UnsafeMutableRawBufferPointer, at position: Int) -> Int {
        switch value {
        case .uint(let v), .int(let v):
            store(v, out, at: position)
            return 32
        case .address(let a):
            a.withUnsafeBytes { raw in
                UnsafeMutableRawBufferPointer(rebasing: out[position + 12..<position + 32]).copyMemory(from: raw)
            }
            return 32
        case .bool(let b):
            out[position + 31] = b ? 1 : 0
            return 32
        case .fixedBytes(let b):
            copy(b, to: out, at: position)
            return 32
        case .bytes(let b):
            store(UInt256(UInt64(b.count)), out, at: position)
            copy(b, to: out, at: position + 32)
            return 32 + paddedLength(b.count)
        case .string(let s):
            var s = s
            let n = s.withUTF8 { utf8 in
                store(UInt256(UInt64(utf8.count)), out, at: position)
                if utf8.count > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: out[position + 32..<position + 32 + utf8.count])
                        .copyMemory(from: UnsafeRawBufferPointer(utf8))
                }
                return utf8.count
            }
            return 32 + paddedLength(n)
        case .array(let items):
            guard case .array(let element, let count) = type else { return 0 }
            if count == nil {
                store(UInt256(UInt64(items.count)), out, at: position)
                return 32 + writeArray(items, element, out, base: position + 32)
            }
            return writeArray(items, element, out, base: position)
        case .tuple(let items):
            guard case .tuple(let components) = type else { return 0 }
            return writeTuple(items, components, out, base: position)
        }
    }

    @inline(__always)
    private static func store(_ word: UInt256, _ out: UnsafeMutableRawBufferPointer, at position: Int) {
        // The buffer was sized for the checked values, so `position + 32 <= out.count` here.
        guard let base = out.baseAddress else { return }
        word.storeBigEndian(to: base + position)
    }

    private static func copy(_ bytes: [UInt8], to out: UnsafeMutableRawBufferPointer, at position: Int) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            UnsafeMutableRawBufferPointer(rebasing: out[position..<position + raw.count]).copyMemory(from: raw)
        }
    }

    /// Head/tail layout of a tuple whose head starts at `base`; offsets are relative to `base`.
    private static func writeTuple(_ items: [ABIValue], _ types: [ABIType], _ out: UnsafeMutableRawBufferPointer, base: Int) -> Int {
        var headSize = 0
        for t in types { headSize += t.headSize }
        var head = base
        var tail = base + headSize
        for (item, type) in zip(items, types) {
            if type.isDynamic {
                store(UInt256(UInt64(tail - base)), out, at: head)
                tail += write(item, type, out, at: tail)
                head += 32
            } else {
                head += write(item, type, out, at: head)
            }
        }
        return tail - base
    }

    /// Head/tail layout of array elements, all of type `element`, starting at `base`.
    private static func writeArray(_ items: [ABIValue], _ element: ABIType, _ out: UnsafeMutableRawBufferPointer, base: Int) -> Int {
        guard element.isDynamic else {
            var position = base
            for item in items { position += write(item, element, out, at: position) }
            return position - base
        }
        var head = base
        var tail = base + 32 * items.count
        for item in items {
            store(UInt256(UInt64(tail - base)), out, at: head)
            tail += write(item, element, out, at: tail)
            head += 32
        }
        return tail - base
    }
}
