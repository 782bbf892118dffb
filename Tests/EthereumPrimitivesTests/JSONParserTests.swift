import EthereumPrimitives
import Testing
import TestSupport

/// The one JSON parser: RFC 8259's grammar, strict (what it refuses is what the RFC excludes, plus
/// invalid UTF-8 and unpaired surrogates), bounded in depth, members in document order, numbers exact.
@Suite struct JSONParserTests {
    static func parse(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
    }

    @Test func numbersKeepTheirExactText() throws {
        // 2^70 and 2^256 - 1: through a Double they would come back as 1.1805916207174113e+21 and 1.157…e+77.
        let text = #"{"a":1180591620717411303424,"b":115792089237316195423570985008687907853269984665640564039457584007913129639935,"c":-0.5e-3}"#
        let value = try Self.parse(text)
        #expect(value["a"] == .number("1180591620717411303424"))
        #expect(value["b"] == .number("115792089237316195423570985008687907853269984665640564039457584007913129639935"))
        #expect(value["c"] == .number("-0.5e-3"))
        #expect(value.description == text)  // written back exactly, members in document order
        #expect(try UInt256(parsing: "1180591620717411303424") == UInt256.one << 70)
    }

    @Test func membersKeepDocumentOrder() throws {
        let value = try Self.parse(#"{"z":1,"a":2,"m":[true,false,null]}"#)
        #expect(value.objectValue?.map(\.key) == ["z", "a", "m"])
        #expect(value["m"] == .array([.bool(true), .bool(false), .null]))
    }

    @Test func escapesAndUnicode() throws {
        #expect(try Self.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        #expect(try Self.parse(#""\u00e9\u20ac\ud83d\ude00""#) == .string("é€😀"))
        #expect(try Self.parse("\"é€😀\"") == .string("é€😀"))
        #expect(try Self.parse(" \t\r\n[ 1 , \"x\" ]\n ") == .array([.number("1"), .string("x")]))
    }

    /// Writing a string and parsing it back gives the string: escapes where RFC 8259 requires them, the rest as is
    /// (whole when nothing needs escaping, as hex data never does).
    @Test func stringsWrittenBackParseToThemselves() throws {
        #expect(JSONValue.quote("a\"b\\c\n\r\t\u{01}é") == #""a\"b\\c\n\r\t\u0001é""#)
        let hex = "0x" + String(repeating: "0123456789abcdef", count: 1_000)
        #expect(JSONValue.quote(hex) == "\"" + hex + "\"")
        var generator = SplitMix64(seed: 0x4A50_4E51)
        let alphabet: [Character] = ["a", "0", "x", "\"", "\\", "/", "\n", "\u{1f}", "\u{7f}", "é", "€", "😀", " "]
        for length in [0, 1, 2, 7, 64, 300] {
            for _ in 0..<50 {
                let text = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
                #expect(try Self.parse(JSONValue.quote(text)) == .string(text), "\(text.debugDescription)")
            }
        }
    }

    /// Each is refused, with the byte where the parser stopped.
    @Test(arguments: [
        ("", 0), ("{", 1), ("[1,]", 3), ("{\"a\":1,}", 7), ("{a:1}", 1), ("[01]", 3), ("[1.]", 3), ("[.5]", 1),
        ("[1e]", 3), ("[+1]", 1), ("[-]", 2), ("[NaN]", 1), ("[Infinity]", 1), ("[tru]", 1), ("\"a", 2),
        ("\"\\x\"", 3), ("\"\\u12\"", 3), ("\"\\ud800\"", 7), ("\"\\udc00\"", 7), ("\"a\u{01}b\"", 2), ("1 2", 2),
        ("{\"a\" 1}", 5), ("[1 2]", 3),
    ])
    func refusesWhatTheGrammarExcludes(text: String, offset: Int) {
        #expect(throws: JSONParseError.self, "\(text.debugDescription)") { try Self.parse(text) }
        do {
            _ = try Self.parse(text)
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
        }
    }

    @Test func refusesInvalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0xff, 0x22], [0x22, 0xc3, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0x5c, 0x6e, 0xff, 0x22]] {
            #expect(throws: JSONParseError.self, "\(bytes)") { try JSONParser.parse(bytes) }
        }
    }

    @Test func nestingIsBounded() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try Self.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try Self.parse(tooDeep) }
        #expect(throws: JSONParseError.self) { try Self.parse(String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)) }
        #expect(throws: Never.self) { try Self.parse(tooDeep, maxDepth: 65) }
        // Far beyond any bound: refused without exhausting the stack.
        #expect(throws: JSONParseError.self) { try Self.parse(String(repeating: "[", count: 1_000_000)) }
    }

    @Test func errorSaysWhereAndWhat() {
        do {
            _ = try Self.parse("{\"a\": tru}")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "unexpected character at byte 6")
        }
    }
}
