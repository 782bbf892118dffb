/// Splits a byte stream into JSON-RPC messages: the framing of geth's IPC endpoint, where requests and batches
/// are JSON objects and arrays written one after another, with or without whitespace between them, and may
/// arrive in any pieces. The framer only finds where each top-level object or array ends (brackets outside
/// strings, with escapes); the message's own validity is the JSON-RPC handler's to judge, so a malformed one still
/// gets a JSON-RPC error. What cannot be framed — a top-level value that is not an object or array, or one over
/// `maxBytes` — ends the stream: nothing after it can be found reliably.
public struct JSONStreamFramer: Sendable {
    /// One framing step.
    public enum Frame: Equatable, Sendable {
        /// A whole top-level object or array, as received.
        case message([UInt8])
        /// The stream cannot be framed past this point; the reason for the client.
        case invalid(String)
    }

    /// The largest message, in bytes.
    public let maxBytes: Int
    private var buffer: [UInt8] = []
    /// Where scanning resumes in `buffer`.
    private var scanned = 0
    /// Where the current message starts in `buffer`, once its first bracket was seen.
    private var messageStart: Int?
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var failed = false

    /// A framer for messages of at most `maxBytes` bytes.
    public init(maxBytes: Int) {
        self.maxBytes = max(1, maxBytes)
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if !failed { buffer.append(contentsOf: bytes) }
    }

    /// The next whole message, `.invalid` once (and then nil) when the stream cannot be framed, or nil when more
    /// bytes are needed.
    public mutating func next() -> Frame? {
        if failed { return nil }
        var index = scanned
        defer { scanned = index }
        while index < buffer.count {
            let byte = buffer[index]
            guard let start = messageStart else {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    messageStart = index
                    depth = 1
                    index += 1
                default:
                    return fail("expected a JSON-RPC request object or batch array, found byte 0x\(String(byte, radix: 16))")
                }
                continue
            }
            if index - start + 1 > maxBytes { return fail("message larger than \(maxBytes) bytes") }
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    let message = Array(buffer[start..<index])
                    buffer.removeSubrange(0..<index)
                    index = 0
                    messageStart = nil
                    return .message(message)
                }
            default: break
            }
        }
        // Whitespace before a message is not kept.
        if messageStart == nil {
            buffer.removeAll(keepingCapacity: true)
            index = 0
        }
        return nil
    }

    private mutating func fail(_ reason: String) -> Frame {
        failed = true
        buffer = []
        return .invalid(reason)
    }
}
