import EthereumPrimitives
import Testing

/// `JSONValue.fields(allowed:)` and `kindDescription`, which every document format's reader (scenario files,
/// simulation specs) uses to refuse a misspelt field instead of ignoring it; and `SplitMix64`, the one seeded generator.
@Suite struct JSONFieldsTests {
    @Test func fieldsTakesKnownMembersAndNamesAnUnknownOne() throws {
        let document = try JSONParser.parse(Array(#"{"name":"a","steps":[1],"name":"b"}"#.utf8))
        let fields = try document.fields(allowed: ["name", "steps", "accounts"])
        #expect(fields["name"] == .string("b"))  // a repeated name keeps its last value
        #expect(fields["steps"] == .array([.number("1")]))
        #expect(fields["accounts"] == nil)

        let misspelt = try JSONParser.parse(Array(#"{"name":"a","stpes":[]}"#.utf8))
        #expect(throws: JSONValue.FieldsError.unknownField("stpes", expected: ["accounts", "name", "steps"])) {
            try misspelt.fields(allowed: ["steps", "name", "accounts"])
        }
        #expect(JSONValue.FieldsError.unknownField("stpes", expected: ["name", "steps"]).description
            == #"unknown field "stpes" (expected one of name, steps)"#)
        #expect(throws: JSONValue.FieldsError.notAnObject) { try JSONValue.array([]).fields(allowed: []) }
    }

    @Test func kindDescriptionNamesEachValue() {
        #expect(JSONValue.null.kindDescription == "null")
        #expect(JSONValue.bool(true).kindDescription == "a boolean")
        #expect(JSONValue.number("5").kindDescription == "the number 5")
        #expect(JSONValue.string("x\"").kindDescription == #"the string "x\"""#)
        #expect(JSONValue.array([]).kindDescription == "an array")
        #expect(JSONValue.object([]).kindDescription == "an object")
    }

    @Test func splitMix64MatchesTheReferenceAndDrawsUniformly() {
        // The first outputs of Vigna's reference splitmix64.c from seed 0.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        // below(n) stays below n, and every value turns up over many draws.
        var seen = Set<Int>()
        for _ in 0..<1_000 {
            let x = generator.below(7)
            #expect((0..<7).contains(x))
            seen.insert(x)
        }
        #expect(seen.count == 7)
        #expect(generator.below(0) == 0)
        #expect(generator.bytes(5).count == 5)
    }
}
