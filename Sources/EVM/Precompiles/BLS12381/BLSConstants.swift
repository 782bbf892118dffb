import EthereumPrimitives

/// BLS12-381 constants: the group order, the generators, and the KZG trusted setup point [τ]₂.
package enum BLSConstants {
    /// r, the order of G1 and G2 (BLS_MODULUS in EIP-4844).
    package static let groupOrder = UInt256(
        limbs: (0xFFFF_FFFF_0000_0001, 0x53BD_A402_FFFE_5BFE, 0x3339_D808_09A1_D805, 0x73ED_A753_299D_7D48))

    /// The standard generators (as in the BLS12-381 definition used by Ethereum's consensus specs).
    package static let g1 = BLSAffine(
        x: fp("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
        y: fp("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"))
    package static let g2 = BLSAffine(
        x: BLSFp2(
            fp("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
            fp("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")),
        y: BLSFp2(
            fp("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
            fp("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")))

    /// [τ]₂: the G2 point at index 1 of the monomial G2 points of Ethereum's KZG ceremony
    /// (`trusted_setup.txt` of c-kzg-4844 and the consensus specs; its compressed form is
    /// b5bfd7dd…20c1def2, which a test re-derives from these affine coordinates).
    package static let tauG2 = BLSAffine(
        x: BLSFp2(
            fp("185cbfee53492714734429b7b38608e23926c911cceceac9a36851477ba4c60b087041de621000edc98edada20c1def2"),
            fp("15bfd7dd8cdeb128843bc287230af38926187075cbfbefa81009a2ce615ac53d2914e5870cb452d2afaaab24f3499f72")),
        y: BLSFp2(
            fp("014353bdb96b626dd7d5ee8599d1fca2131569490e28de18e82451a496a9c9794ce26d105941f383ee689bfbbb832a99"),
            fp("1666c54b0a32529503432fcae0181b4bef79de09fc63671fda5ed1ba9bfa07899495346f3d7ac9cd23048ef30d0a154f")))

    /// A base-field constant from up to 96 hex digits (zero if malformed; tests check every constant
    /// through the property it must have).
    static func fp(_ hex: String) -> BLSFp {
        let padded = String(repeating: "0", count: max(0, 96 - hex.count)) + hex
        guard let bytes = try? Hex.decode(padded), bytes.count == 48 else { return .zero }
        return BLSFp(bigEndian: bytes) ?? .zero
    }

    /// An Fp2 constant c0 + c1·u from hex digits.
    static func fp2(_ c0: String, _ c1: String) -> BLSFp2 { BLSFp2(fp(c0), fp(c1)) }

    /// Little-endian 64-bit limbs of a big-endian hex integer.
    package static func limbs(hex: String) -> [UInt64] {
        let digits = Array(hex.utf8)
        var out: [UInt64] = []
        var end = digits.count
        while end > 0 {
            let start = max(0, end - 16)
            var word: UInt64 = 0
            for d in digits[start..<end] {
                let v: UInt64
                switch d {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt64(d - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): v = UInt64(d - UInt8(ascii: "a") + 10)
                default: v = 0
                }
                word = word << 4 | v
            }
            out.append(word)
            end = start
        }
        return out
    }
}
