/// How strictly ``ABIDecoder`` reads data.
///
/// Both modes check every offset and length against the data before allocating anything, refuse
/// invalid scalars (a `uint8` word with high bits set, an `int8` that is not sign-extended, a `bool`
/// other than 0 or 1, an `address` with non-zero high bytes, a `bytesN` with non-zero bytes after the
/// N), and bound nesting through ``ABIType/maxDepth``. Both accept bytes after the end of the encoding
/// (calldata and return data may carry extra bytes, as Solidity's decoder accepts).
///
/// - ``strict`` (the default) accepts only the canonical encoding, the one Solidity, Vyper and eth-abi
///   produce: each dynamic value's offset points exactly where the previous tail ended (the first one
///   right after the head), so tails are in order, do not overlap and leave no gaps; the padding after
///   `bytes`/`string` is present and zero; strings are valid UTF-8. A canonical encoding never decodes to
///   more values than it has 32-byte words, so output size is bounded by input size.
/// - ``lenient`` accepts what Solidity's ABI decoder accepts: offsets may point anywhere inside the data
///   (backward, shared, into the head), `bytes`/`string` padding may be missing or non-zero, and invalid
///   UTF-8 decodes with replacement characters. Because shared offsets let a short input describe a large
///   value, decoding stops with an error once the result would hold more than ``maxExpansion`` times as many
///   32-byte units (scalars, length words, bytes) as the input has words.
public struct ABIDecodingOptions: Sendable, Hashable {
    /// Require offsets to follow the canonical layout.
    public var requireCanonicalLayout: Bool
    /// Require the padding after `bytes` and `string` contents to be present and zero.
    public var requireZeroPadding: Bool
    /// Refuse strings that are not valid UTF-8 (otherwise invalid sequences become U+FFFD).
    public var rejectInvalidUTF8: Bool
    /// Bound on the decoded size, as a multiple of the input's size in words (see the type's notes).
    public var maxExpansion: Int

    /// Creates options; see ``strict`` and ``lenient`` for the usual sets.
    public init(requireCanonicalLayout: Bool, requireZeroPadding: Bool, rejectInvalidUTF8: Bool, maxExpansion: Int) {
        self.requireCanonicalLayout = requireCanonicalLayout
        self.requireZeroPadding = requireZeroPadding
        self.rejectInvalidUTF8 = rejectInvalidUTF8
        self.maxExpansion = maxExpansion
    }

    /// Canonical encodings only (the default).
    public static let strict = ABIDecodingOptions(
        requireCanonicalLayout: true, requireZeroPadding: true, rejectInvalidUTF8: true, maxExpansion: 1)

    /// What Solidity's decoder accepts, with a bound on expansion.
    public static let lenient = ABIDecodingOptions(
        requireCanonicalLayout: false, requireZeroPadding: false, rejectInvalidUTF8: false, maxExpansion: 4)
}
