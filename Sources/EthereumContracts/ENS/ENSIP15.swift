import Foundation

/// ENS name normalisation as ENSIP-15 specifies it: every label is tokenized (emoji sequences, valid, mapped, ignored
/// and disallowed codepoints), its text put in NFC, then validated (underscores, label extensions, combining marks,
/// fenced characters, one script group, non-spacing marks, whole-script confusables). The tables are ENSIP-15's own
/// (`spec.json` and `nf.json`, compacted into `tablesBase64` by tools/ensip15_tables.py); the algorithm is written
/// from the standard. Names go through ``ENSName`` (`ENSName.normalize`, `ENSName.beautify`, `ENSName.namehash`).
public final class ENSIP15: Sendable {
    /// The tables, decoded once per process on first use (about 90 KB, a few milliseconds).
    public static let shared: ENSIP15 = {
        guard let data = Data(base64Encoded: tablesBase64, options: .ignoreUnknownCharacters),
            let tables = try? ENSIP15(tables: Array(data))
        else { preconditionFailure("ENSIP15Tables.swift does not decode: regenerate it with tools/ensip15_tables.py") }
        return tables
    }()

    /// When ENSIP-15's tables were made, and their Unicode version.
    public let created: String, unicodeVersion: String

    let ignored: CodepointSet, combiningMarks: CodepointSet, nonSpacingMarks: CodepointSet, escape: CodepointSet
    let maxNonSpacingMarks: Int
    let fenced: [UInt32: String]
    let mapped: [UInt32: [UInt32]]
    let emoji: [[UInt32]]
    let groups: [Group]
    let possiblyValid: CodepointSet
    /// Per confused codepoint of a whole-script confusable: the groups outside its confusable extent (indices);
    /// `nil` entries (in ``unique``) mark codepoints that are in one group only and confusable with nothing.
    let confusables: [UInt32: [Int]]
    let unique: CodepointSet
    let emojiTrie: [EmojiNode]
    let nf: UnicodeNF
    let greek: Int?

    struct Group: Sendable {
        let name: String
        let restricted: Bool
        let combiningMarksAllowed: Bool
        let primary: CodepointSet
        let secondary: CodepointSet
        func contains(_ cp: UInt32) -> Bool { primary.contains(cp) || secondary.contains(cp) }
        /// "Latin", or "Restricted[Xyz]" for a restricted group (as ENSIP-15 names them in errors).
        var label: String { restricted ? "Restricted[\(name)]" : name }
    }

    struct EmojiNode: Sendable {
        var children: [UInt32: Int32] = [:]
        var emoji: Int32 = -1
    }

    struct DecodeError: Error {}

    init(tables bytes: [UInt8]) throws {
        var r = TableReader(bytes: bytes)
        guard try r.raw(4) == Array("ENS1".utf8) else { throw DecodeError() }
        created = try r.string()
        unicodeVersion = try r.string()
        ignored = try r.set()
        combiningMarks = try r.set()
        nonSpacingMarks = try r.set()
        maxNonSpacingMarks = Int(try r.uint())
        escape = try r.set()
        var fenced: [UInt32: String] = [:]
        for _ in 0..<(try r.count()) {
            let cp = try r.uint()
            fenced[cp] = try r.string()
        }
        self.fenced = fenced
        mapped = try r.keyed()
        var emoji: [[UInt32]] = []
        for _ in 0..<(try r.count()) { emoji.append(try r.sequence()) }
        self.emoji = emoji
        var groups: [Group] = []
        for _ in 0..<(try r.count()) {
            let name = try r.string()
            let flags = try r.uint()
            groups.append(
                Group(name: name, restricted: flags & 1 != 0, combiningMarksAllowed: flags & 2 != 0, primary: try r.set(), secondary: try r.set()))
        }
        self.groups = groups
        var wholes: [(valid: CodepointSet, confused: CodepointSet)] = []
        for _ in 0..<(try r.count()) { wholes.append((try r.set(), try r.set())) }
        var ranks: [CodepointSet] = []
        for _ in 0..<(try r.count()) { ranks.append(try r.set()) }
        let exclusions = try r.set()
        let decompositions = try r.keyed()
        guard r.atEnd else { throw DecodeError() }
        let nf = UnicodeNF(ranks: ranks, exclusions: exclusions, decompositions: decompositions)
        self.nf = nf
        greek = groups.firstIndex { $0.name == "Greek" }

        // Every codepoint of a group, and their decompositions: what may appear in text before NFC.
        var union = Set<UInt32>(), multi = Set<UInt32>()
        for group in groups {
            for cp in group.primary.elements + group.secondary.elements where !union.insert(cp).inserted { multi.insert(cp) }
        }
        var valid = union
        for cp in union where nf.decomposes(cp) { valid.formUnion(nf.decompose([cp])) }
        possiblyValid = CodepointSet(valid)

        // Whole-script confusables: each confused codepoint maps to the groups that hold a look-alike of it outside its
        // own confusable extent (the groups sharing its characters).
        var confusables: [UInt32: [Int]] = [:]
        for whole in wholes {
            var extents: [(groups: Set<Int>, cps: [UInt32])] = []
            var cover = Set<Int>()
            for cp in whole.valid.elements + whole.confused.elements {
                let gs = groups.indices.filter { groups[$0].contains(cp) }
                if let i = extents.firstIndex(where: { extent in gs.contains { extent.groups.contains($0) } }) {
                    extents[i].cps.append(cp)
                    extents[i].groups.formUnion(gs)
                } else {
                    extents.append((Set(gs), [cp]))
                }
                cover.formUnion(gs)
            }
            let confused = Set(whole.confused.elements)
            for extent in extents {
                let complement = cover.subtracting(extent.groups).sorted()
                for cp in extent.cps where confused.contains(cp) { confusables[cp] = complement }
            }
        }
        self.confusables = confusables
        unique = CodepointSet(union.subtracting(multi).filter { confusables[$0] == nil })

        // The emoji trie: FE0F optional wherever a sequence has it.
        var trie = [EmojiNode()]
        for (index, sequence) in emoji.enumerated() {
            var nodes = [0]
            for cp in sequence {
                if cp == 0xFE0F {
                    nodes += nodes.map { Self.child(&trie, $0, cp) }
                } else {
                    nodes = nodes.map { Self.child(&trie, $0, cp) }
                }
            }
            for node in nodes { trie[node].emoji = Int32(index) }
        }
        emojiTrie = trie
    }

    private static func child(_ trie: inout [EmojiNode], _ node: Int, _ cp: UInt32) -> Int {
        if let next = trie[node].children[cp] { return Int(next) }
        trie.append(EmojiNode())
        trie[node].children[cp] = Int32(trie.count - 1)
        return trie.count - 1
    }

    // MARK: Names

    /// A token of a label: text (after mapping and NFC) or one emoji sequence.
    enum Token {
        case text([UInt32])
        case emoji(index: Int)
    }

    /// The normalised name (emoji without FE0F), or the error of its first invalid label.
    public func normalize(_ name: String) throws(ENSNameError) -> String {
        try transform(name) { tokens, label, index throws(ENSNameError) in
            let (cps, _) = try self.validate(tokens, label: label, index: index, name: name, beautified: false)
            return cps
        }
    }

    /// The normalised name for display: emoji fully qualified (with FE0F), and `ξ` as `Ξ` outside Greek labels.
    public func beautify(_ name: String) throws(ENSNameError) -> String {
        try transform(name) { tokens, label, index throws(ENSNameError) in
            var (cps, group) = try self.validate(tokens, label: label, index: index, name: name, beautified: true)
            if group != self.greek {
                for i in cps.indices where cps[i] == 0x3BE { cps[i] = 0x39E }
            }
            return cps
        }
    }

    private func transform(
        _ name: String, _ body: ([Token], [UInt32], Int) throws(ENSNameError) -> [UInt32]
    ) throws(ENSNameError) -> String {
        if name.isEmpty { return "" }  // the root
        var out = String.UnicodeScalarView()
        let labels = name.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            let cps = label.map(\.value)
            let tokens = try tokenize(cps, label: cps, index: index, name: name)
            if index > 0 { out.append(".") }
            for cp in try body(tokens, cps, index) { out.append(Unicode.Scalar(cp) ?? "\u{FFFD}") }
        }
        return String(out)
    }

    func tokenize(_ cps: [UInt32], label: [UInt32], index: Int, name: String) throws(ENSNameError) -> [Token] {
        var tokens: [Token] = []
        var text: [UInt32] = []
        var i = 0
        while i < cps.count {
            if let (emoji, end) = matchEmoji(cps, from: i) {
                if !text.isEmpty {
                    tokens.append(.text(nf.nfc(text)))
                    text = []
                }
                tokens.append(.emoji(index: emoji))
                i = end
                continue
            }
            let cp = cps[i]
            i += 1
            if possiblyValid.contains(cp) {
                text.append(cp)
            } else if let replacement = mapped[cp] {
                text += replacement
            } else if !ignored.contains(cp) {
                throw ENSNameError(name: name, label: describe(label), labelIndex: index, reason: .disallowedCharacter(describe(cp), cp))
            }
        }
        if !text.isEmpty { tokens.append(.text(nf.nfc(text))) }
        return tokens
    }

    private func matchEmoji(_ cps: [UInt32], from start: Int) -> (Int, Int)? {
        var node = 0
        var found: (Int, Int)?
        var i = start
        while i < cps.count, let next = emojiTrie[node].children[cps[i]] {
            node = Int(next)
            i += 1
            if emojiTrie[node].emoji >= 0 { found = (Int(emojiTrie[node].emoji), i) }
        }
        return found
    }

    /// The label's output codepoints and its group (nil for an ASCII or emoji-only label), or why it is invalid.
    private func validate(
        _ tokens: [Token], label: [UInt32], index: Int, name: String, beautified: Bool
    ) throws(ENSNameError) -> ([UInt32], Int?) {
        func fail(_ reason: ENSNameError.Reason) -> ENSNameError {
            ENSNameError(name: name, label: describe(label), labelIndex: index, reason: reason)
        }
        var norm: [UInt32] = []
        for token in tokens {
            switch token {
            case .text(let cps): norm += cps
            case .emoji(let i): norm += beautified ? emoji[i] : emoji[i].filter { $0 != 0xFE0F }
            }
        }
        if norm.isEmpty { throw fail(.emptyLabel) }
        // Underscores only at the start.
        if let firstOther = norm.firstIndex(where: { $0 != 0x5F }), norm[firstOther...].contains(0x5F) { throw fail(.underscore) }
        let hasEmoji = tokens.contains { if case .emoji = $0 { return true } else { return false } }
        if !hasEmoji && norm.allSatisfy({ $0 < 0x80 }) {
            if norm.count >= 4 && norm[2] == 0x2D && norm[3] == 0x2D {
                throw fail(.labelExtension(describe(Array(norm.prefix(4)))))
            }
            return (norm, nil)
        }
        var chars: [UInt32] = []
        for token in tokens { if case .text(let cps) = token { chars += cps } }
        if chars.isEmpty { return (norm, nil) }
        // Combining marks: not at the start of a label, not right after an emoji.
        for (i, token) in tokens.enumerated() {
            guard case .text(let cps) = token, let first = cps.first, combiningMarks.contains(first) else { continue }
            if i == 0 { throw fail(.leadingCombiningMark(describe(first))) }
            if case .emoji(let e) = tokens[i - 1] { throw fail(.combiningMarkAfterEmoji(emoji: describe(emoji[e]), mark: describe(first))) }
        }
        // Fenced characters (apostrophe, fraction slash, middle dot): not leading, trailing or adjacent.
        if let what = fenced[norm[0]] { throw fail(.fenced("leading \(what)")) }
        var last = -1
        var previous = ""
        for i in 1..<norm.count {
            guard let what = fenced[norm[i]] else { continue }
            if last == i { throw fail(.fenced("adjacent \(previous) + \(what)")) }
            last = i + 1
            previous = what
        }
        if last == norm.count { throw fail(.fenced("trailing \(previous)")) }
        // One group holds every character.
        var seen = Set<UInt32>()
        let uniqueChars = chars.filter { seen.insert($0).inserted }
        var candidates = Array(groups.indices)
        for cp in uniqueChars {
            let next = candidates.filter { groups[$0].contains(cp) }
            if next.isEmpty {
                // In no group at all (a part of a valid character that NFC left alone): disallowed, not a mixture.
                if !groups.contains(where: { $0.contains(cp) }) { throw fail(.disallowedCharacter(describe(cp), cp)) }
                throw fail(mixture(groups[candidates[0]], cp))
            }
            candidates = next
            if candidates.count == 1 { break }
        }
        let group = candidates[0]
        for cp in chars where !groups[group].contains(cp) { throw fail(mixture(groups[group], cp)) }
        // Non-spacing marks (groups that do not allow combining marks freely): no repeats, at most nsm_max in a row.
        if !groups[group].combiningMarksAllowed {
            let decomposed = nf.decompose(chars)
            var i = 1
            while i < decomposed.count {
                if nonSpacingMarks.contains(decomposed[i]) {
                    var j = i + 1
                    while j < decomposed.count, nonSpacingMarks.contains(decomposed[j]) {
                        if decomposed[i..<j].contains(decomposed[j]) { throw fail(.duplicateNonSpacingMark(describe(decomposed[j]))) }
                        j += 1
                    }
                    if j - i > maxNonSpacingMarks {
                        throw fail(.excessiveNonSpacingMarks(describe(Array(decomposed[(i - 1)..<j])), count: j - i, max: maxNonSpacingMarks))
                    }
                    i = j
                }
                i += 1
            }
        }
        // Whole-script confusables: the label must not be spelled entirely with look-alikes of another group's letters.
        var maker: [Int]?
        var shared: [UInt32] = []
        for cp in uniqueChars {
            if unique.contains(cp) { return (norm, group) }
            if let complement = confusables[cp] {
                maker = maker.map { kept in kept.filter { complement.contains($0) } } ?? complement
                if maker?.isEmpty == true { return (norm, group) }
            } else {
                shared.append(cp)
            }
        }
        if let maker {
            for other in maker where shared.allSatisfy({ groups[other].contains($0) }) {
                throw fail(.wholeScriptConfusable(group: groups[group].label, other: groups[other].label))
            }
        }
        return (norm, group)
    }

    private func mixture(_ group: Group, _ cp: UInt32) -> ENSNameError.Reason {
        let other = groups.first { $0.primary.contains(cp) }
        return .illegalMixture(group: group.label, character: describe(cp), otherGroup: other?.label)
    }

    /// A codepoint as `"x" {78}`, or `{200D}` when it would not print safely.
    func describe(_ cp: UInt32) -> String {
        let hex = "{" + String(cp, radix: 16, uppercase: true) + "}"
        guard !escape.contains(cp), let scalar = Unicode.Scalar(cp) else { return hex }
        return "\"" + (combiningMarks.contains(cp) ? "\u{25CC}" : "") + String(Character(scalar)) + "\" " + hex
    }

    /// Codepoints as text, the unprintable ones as `{HEX}`.
    func describe(_ cps: [UInt32]) -> String {
        var out = cps.first.map { combiningMarks.contains($0) ? "\u{25CC}" : "" } ?? ""
        for cp in cps {
            if escape.contains(cp) || Unicode.Scalar(cp) == nil {
                out += "{" + String(cp, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(Unicode.Scalar(cp) ?? "\u{FFFD}")
            }
        }
        return out
    }
}

/// Why a name is not a valid ENS name under ENSIP-15: the label (its position and its text, unprintable characters
/// as `{HEX}`) and the rule it breaks.
public struct ENSNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rules of ENSIP-15 a label can break.
    public enum Reason: Sendable, Hashable {
        /// A character that is neither valid, mapped nor ignored (the character as `"x" {HEX}`, and its codepoint).
        case disallowedCharacter(String, UInt32)
        /// An empty label (`a..b`, a leading or trailing dot) or one of ignored characters only.
        case emptyLabel
        /// An underscore after the start of the label.
        case underscore
        /// An ASCII label with hyphens third and fourth (`xn--`): reserved for IDNA extensions.
        case labelExtension(String)
        /// A combining mark at the start of the label.
        case leadingCombiningMark(String)
        /// A combining mark right after an emoji.
        case combiningMarkAfterEmoji(emoji: String, mark: String)
        /// An apostrophe, fraction slash or middle dot at the start, the end or next to another.
        case fenced(String)
        /// Characters of scripts that do not mix (the group chosen, the character, the group it belongs to).
        case illegalMixture(group: String, character: String, otherGroup: String?)
        /// The same non-spacing mark twice in a row.
        case duplicateNonSpacingMark(String)
        /// More non-spacing marks in a row than ENSIP-15 allows.
        case excessiveNonSpacingMarks(String, count: Int, max: Int)
        /// Every character has a look-alike in another script that could spell the same label.
        case wholeScriptConfusable(group: String, other: String)
    }

    /// The whole name.
    public let name: String
    /// The offending label, as printed in the message.
    public let label: String
    /// Its position (0: the first, leftmost).
    public let labelIndex: Int
    /// The rule it breaks.
    public let reason: Reason

    public var description: String {
        let why: String
        switch reason {
        case .disallowedCharacter(let cp, _): why = "disallowed character: \(cp)"
        case .emptyLabel: why = "empty label"
        case .underscore: why = "underscore allowed only at start"
        case .labelExtension(let prefix): why = "invalid label extension: \"\(prefix)\""
        case .leadingCombiningMark(let cp): why = "leading combining mark: \(cp)"
        case .combiningMarkAfterEmoji(let emoji, let mark): why = "emoji + combining mark: \"\(emoji)\" + \(mark)"
        case .fenced(let what): why = "fenced character: \(what)"
        case .illegalMixture(let group, let cp, let other): why = "illegal mixture: \(group) + \(other.map { "\($0) " } ?? "")\(cp)"
        case .duplicateNonSpacingMark(let cp): why = "duplicate non-spacing marks: \(cp)"
        case .excessiveNonSpacingMarks(let text, let count, let max): why = "excessive non-spacing marks: \"\(text)\" (\(count)/\(max))"
        case .wholeScriptConfusable(let group, let other): why = "whole-script confusable: \(group)/\(other)"
        }
        return "invalid ENS name: label \(labelIndex + 1) \"\(label)\": \(why)"
    }
}

// MARK: - Tables

/// A set of codepoints as sorted, disjoint ranges.
struct CodepointSet: Sendable {
    private var starts: [UInt32] = []
    private var ends: [UInt32] = []  // inclusive

    init() {}

    init<S: Sequence>(_ cps: S) where S.Element == UInt32 {
        for cp in cps.sorted() {
            if let end = ends.last, end &+ 1 == cp {
                ends[ends.count - 1] = cp
            } else if ends.last != cp {
                starts.append(cp)
                ends.append(cp)
            }
        }
    }

    mutating func append(run start: UInt32, through end: UInt32) {
        starts.append(start)
        ends.append(end)
    }

    func contains(_ cp: UInt32) -> Bool {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= cp { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && cp <= ends[lo - 1]
    }

    var elements: [UInt32] { zip(starts, ends).flatMap { Array($0...$1) } }
}

/// Reads tools/ensip15_tables.py's format.
struct TableReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    mutating func uint() throws -> UInt32 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 35 else { throw ENSIP15.DecodeError() }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        guard value <= UInt64(UInt32.max) else { throw ENSIP15.DecodeError() }
        return UInt32(value)
    }

    mutating func count() throws -> Int { Int(try uint()) }

    mutating func raw(_ n: Int) throws -> [UInt8] {
        guard bytes.count - position >= n else { throw ENSIP15.DecodeError() }
        defer { position += n }
        return Array(bytes[position..<(position + n)])
    }

    mutating func string() throws -> String { String(decoding: try raw(try count()), as: UTF8.self) }

    mutating func sequence() throws -> [UInt32] { try (0..<(try count())).map { _ in try uint() } }

    mutating func set() throws -> CodepointSet {
        var set = CodepointSet()
        var end: UInt64 = 0
        for _ in 0..<(try count()) {
            let start = end + UInt64(try uint())
            let last = start + UInt64(try uint())
            guard last <= 0x10FFFF else { throw ENSIP15.DecodeError() }
            set.append(run: UInt32(start), through: UInt32(last))
            end = last + 1
        }
        return set
    }

    mutating func keyed() throws -> [UInt32: [UInt32]] {
        var out: [UInt32: [UInt32]] = [:]
        var key: UInt32 = 0
        for _ in 0..<(try count()) {
            key &+= try uint()
            out[key] = try sequence()
        }
        return out
    }
}

/// Unicode NFC and NFD on ENSIP-15's own tables (`nf.json`: combining-class ranks, composition exclusions and
/// canonical decompositions, at the standard's Unicode version, whatever the platform's), with Hangul syllables
/// composed and decomposed arithmetically.
struct UnicodeNF: Sendable {
    private let rank: [UInt32: UInt8]
    private let decompositions: [UInt32: [UInt32]]
    private let compositions: [UInt64: UInt32]

    private static let sBase: UInt32 = 0xAC00, lBase: UInt32 = 0x1100, vBase: UInt32 = 0x1161, tBase: UInt32 = 0x11A7
    private static let lCount: UInt32 = 19, vCount: UInt32 = 21, tCount: UInt32 = 28
    private static let nCount = vCount * tCount, sCount = lCount * nCount

    init(ranks: [CodepointSet], exclusions: CodepointSet, decompositions: [UInt32: [UInt32]]) {
        var rank: [UInt32: UInt8] = [:]
        for (i, set) in ranks.enumerated() { for cp in set.elements { rank[cp] = UInt8(truncatingIfNeeded: i + 1) } }
        self.rank = rank
        self.decompositions = decompositions
        var compositions: [UInt64: UInt32] = [:]
        for (cp, parts) in decompositions where parts.count == 2 && !exclusions.contains(cp) {
            compositions[UInt64(parts[0]) << 32 | UInt64(parts[1])] = cp
        }
        self.compositions = compositions
    }

    private func cc(_ cp: UInt32) -> UInt8 { rank[cp] ?? 0 }

    /// True when NFD changes the codepoint.
    func decomposes(_ cp: UInt32) -> Bool {
        (cp >= Self.sBase && cp < Self.sBase + Self.sCount) || decompositions[cp] != nil
    }

    /// NFD: full canonical decomposition, then canonical ordering.
    func decompose(_ cps: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(cps.count)
        func add(_ cp: UInt32) {
            if cp < 0x80 {
                out.append(cp)
            } else if cp >= Self.sBase && cp < Self.sBase + Self.sCount {
                let s = cp - Self.sBase
                out.append(Self.lBase + s / Self.nCount)
                out.append(Self.vBase + (s % Self.nCount) / Self.tCount)
                if s % Self.tCount > 0 { out.append(Self.tBase + s % Self.tCount) }
            } else if let parts = decompositions[cp] {
                for part in parts { add(part) }
            } else {
                out.append(cp)
            }
        }
        for cp in cps { add(cp) }
        // Canonical ordering: a stable sort of each run of non-starters by combining class.
        var i = 0
        while i < out.count {
            guard cc(out[i]) != 0 else {
                i += 1
                continue
            }
            var j = i
            while j < out.count && cc(out[j]) != 0 { j += 1 }
            if j - i > 1 {
                let sorted = out[i..<j].enumerated().sorted { a, b in
                    let (ca, cb) = (cc(a.element), cc(b.element))
                    return ca != cb ? ca < cb : a.offset < b.offset
                }.map(\.element)
                out.replaceSubrange(i..<j, with: sorted)
            }
            i = j
        }
        return out
    }

    private func compose(_ a: UInt32, _ b: UInt32) -> UInt32? {
        if a >= Self.lBase && a < Self.lBase + Self.lCount && b >= Self.vBase && b < Self.vBase + Self.vCount {
            return Self.sBase + ((a - Self.lBase) * Self.vCount + (b - Self.vBase)) * Self.tCount
        }
        if a >= Self.sBase && a < Self.sBase + Self.sCount && (a - Self.sBase) % Self.tCount == 0
            && b > Self.tBase && b < Self.tBase + Self.tCount
        {
            return a + (b - Self.tBase)
        }
        return compositions[UInt64(a) << 32 | UInt64(b)]
    }

    /// NFC: NFD, then canonical composition.
    func nfc(_ cps: [UInt32]) -> [UInt32] {
        let d = decompose(cps)
        guard !d.isEmpty else { return d }
        var out: [UInt32] = []
        out.reserveCapacity(d.count)
        var starter: Int? = nil
        var lastClass = -1  // the class of the last character kept since the starter; -1: none (adjacent)
        for cp in d {
            let c = Int(cc(cp))
            // Not blocked: adjacent to the starter, or every character between has a lower class than cp.
            if let s = starter, lastClass == -1 || lastClass < c, let composed = compose(out[s], cp) {
                out[s] = composed
                continue
            }
            if c == 0 {
                starter = out.count
                lastClass = -1
            } else {
                lastClass = c
            }
            out.append(cp)
        }
        return out
    }
}
