import Crypto
import CryptoExtras
import Foundation

/// A BIP-39 mnemonic in the English word list: 12–24 words encoding 128–256 bits of entropy plus a checksum.
///
/// Its `description` never shows the words; read ``phrase`` explicitly.
public struct Mnemonic: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The words, lowercase, in order.
    public let words: [String]

    /// Parses and validates a phrase: words separated by any whitespace, case-insensitive; each must be in the
    /// English list and the checksum must match.
    public init(phrase: String) throws(HDWalletError) {
        let words = phrase.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard [12, 15, 18, 21, 24].contains(words.count) else { throw .invalidWordCount(words.count) }
        var bits: [Bool] = []
        bits.reserveCapacity(words.count * 11)
        for (i, word) in words.enumerated() {
            guard let index = Self.wordIndex[word] else { throw .unknownWord(position: i + 1) }
            for b in (0..<11).reversed() { bits.append(index >> b & 1 == 1) }
        }
        let checksumBits = words.count / 3
        let entropyBits = bits.count - checksumBits
        var entropy = [UInt8](repeating: 0, count: entropyBits / 8)
        for i in 0..<entropyBits where bits[i] { entropy[i / 8] |= 0x80 >> UInt8(i % 8) }
        let expected = Self.checksumBits(of: entropy)
        guard Array(bits[entropyBits...]) == expected else { throw .invalidChecksum }
        self.words = words
    }

    /// The mnemonic encoding `entropy` (16, 20, 24, 28 or 32 bytes).
    public init(entropy: [UInt8]) throws(HDWalletError) {
        guard [16, 20, 24, 28, 32].contains(entropy.count) else { throw .invalidEntropyLength(entropy.count) }
        var bits: [Bool] = []
        for byte in entropy { for b in (0..<8).reversed() { bits.append(byte >> UInt8(b) & 1 == 1) } }
        bits += Self.checksumBits(of: entropy)
        var words: [String] = []
        for w in 0..<(bits.count / 11) {
            var index = 0
            for b in 0..<11 { index = index << 1 | (bits[w * 11 + b] ? 1 : 0) }
            words.append(Self.englishWords[index])
        }
        self.words = words
    }

    /// A new mnemonic from the system's secure random generator: 12 words (128 bits) by default.
    public static func generate(wordCount: Int = 12) throws(HDWalletError) -> Mnemonic {
        guard [12, 15, 18, 21, 24].contains(wordCount) else { throw .invalidWordCount(wordCount) }
        var generator = SystemRandomNumberGenerator()
        let entropy = (0..<(wordCount * 4 / 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try Mnemonic(entropy: entropy)
    }

    /// The words joined by single spaces. Secret: handle like a private key.
    public var phrase: String { words.joined(separator: " ") }

    /// The entropy the words encode.
    public var entropy: [UInt8] {
        let indices = words.compactMap { Self.wordIndex[$0] }
        let entropyBits = indices.count * 11 - indices.count / 3
        var out = [UInt8](repeating: 0, count: entropyBits / 8)
        for i in 0..<entropyBits where indices[i / 11] >> (10 - i % 11) & 1 == 1 { out[i / 8] |= 0x80 >> UInt8(i % 8) }
        return out
    }

    /// The 64-byte BIP-39 seed: PBKDF2-HMAC-SHA512 of the NFKD phrase, salted with "mnemonic" + the NFKD
    /// passphrase, 2048 rounds.
    public func seed(passphrase: String = "") throws(HDWalletError) -> [UInt8] {
        let password = Array(phrase.decomposedStringWithCompatibilityMapping.utf8)
        let salt = Array(("mnemonic" + passphrase).decomposedStringWithCompatibilityMapping.utf8)
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha512, outputByteCount: 64, unsafeUncheckedRounds: 2048)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw .cryptoFailure("PBKDF2-HMAC-SHA512 failed: \(error)")
        }
    }

    /// The first entropy-bits/32 bits of SHA-256(entropy).
    private static func checksumBits(of entropy: [UInt8]) -> [Bool] {
        let hash = Array(SHA256.hash(data: entropy))
        return (0..<(entropy.count / 4)).map { i in hash[i / 8] >> UInt8(7 - i % 8) & 1 == 1 }
    }

    /// Word → index in the English list.
    static let wordIndex: [String: Int] = Dictionary(uniqueKeysWithValues: englishWords.enumerated().map { ($1, $0) })

    public var description: String { "Mnemonic(\(words.count) words, <redacted>)" }
    public var debugDescription: String { description }
}
