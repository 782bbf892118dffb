import Crypto
import EthereumCrypto
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct HDWalletTests {
    /// The project's BIP-39 table equals ../shared/bip39/english.txt, whose sha256 is the digest published in
    /// that folder's README (from bitcoin/bips bip-0039/english.txt).
    @Test func wordListMatchesSharedCopy() throws {
        #expect(Mnemonic.englishWords.count == 2048)
        #expect(Set(Mnemonic.englishWords).count == 2048)
        guard let url = TestPaths.shared("bip39/english.txt", what: "BIP-39 English word list") else { return }
        let data = try Data(contentsOf: url)
        let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        #expect(digest == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
        let words = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(words == Mnemonic.englishWords)
        if let readme = TestPaths.shared("bip39/README.md", what: "BIP-39 README") {
            #expect(try String(contentsOf: readme, encoding: .utf8).contains(digest))
        }
    }

    /// Official BIP-39 vectors (trezor/python-mnemonic vectors.json, "english", passphrase "TREZOR"): entropy,
    /// mnemonic, seed. A selection covering 12, 18 and 24 words.
    static let trezorVectors: [(entropy: String, mnemonic: String, seed: String)] = [
        ("00000000000000000000000000000000",
         "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
         "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"),
        ("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
         "legal winner thank year wave sausage worth useful legal winner thank yellow",
         "2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607"),
        ("ffffffffffffffffffffffffffffffff",
         "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
         "ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069"),
        ("808080808080808080808080808080808080808080808080",
         "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter always",
         "107d7c02a5aa6f38c58083ff74f04c607c2d2c0ecc55501dadd72d025b751bc27fe913ffb796f841c49b1d33b610cf0e91d3aa239027f5e99fe4ce9e5088cd65"),
        ("8080808080808080808080808080808080808080808080808080808080808080",
         "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless",
         "c0c519bd0e91a2ed54357d9d1ebef6f5af218a153624cf4f2da911a0ed8f7a09e2ef61af0aca007096df430022f7a2b6fb91661a9589097069720d015e4e982f"),
        ("9e885d952ad362caeb4efe34a8e91bd2",
         "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
         "274ddc525802f7c828d8ef7ddbcdc5304e87ac3535913611fbbfa986d0c9e5476c91689f9c8a54fd55bd38606aa6a8595ad213d4c9c9f9aca3fb217069a41028"),
    ]

    @Test func bip39Vectors() throws {
        var tally = ConformanceTally(suite: "BIP-39 vectors (TREZOR)")
        for (i, v) in Self.trezorVectors.enumerated() {
            let fromEntropy = try Mnemonic(entropy: try Hex.decode(v.entropy))
            tally.check(fromEntropy.phrase == v.mnemonic, "#\(i) mnemonic", "entropy encodes other words")
            let parsed = try Mnemonic(phrase: v.mnemonic)
            tally.check(Hex.encode(parsed.entropy, prefix: false) == v.entropy, "#\(i) entropy", "words decode to other entropy")
            tally.check(Hex.encode(try parsed.seed(passphrase: "TREZOR"), prefix: false) == v.seed, "#\(i) seed", "seed differs")
        }
        tally.report()
        #expect(tally.failed == 0)
    }

    @Test func mnemonicValidation() throws {
        #expect(throws: HDWalletError.invalidChecksum) {
            try Mnemonic(phrase: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon")
        }
        #expect(throws: HDWalletError.unknownWord(position: 3)) {
            try Mnemonic(phrase: "abandon abandon abandonx abandon abandon abandon abandon abandon abandon abandon abandon about")
        }
        #expect(throws: HDWalletError.invalidWordCount(11)) { try Mnemonic(phrase: "test test test test test test test test test test test") }
        // Extra whitespace and capitals are accepted.
        let m = try Mnemonic(phrase: "  Test test test test test test test test test test\ttest   JUNK ")
        #expect(m.phrase == "test test test test test test test test test test test junk")
        #expect(!m.description.contains("test"))
        let generated = try Mnemonic.generate(wordCount: 24)
        #expect(try Mnemonic(phrase: generated.phrase) == generated)
    }

    /// The development mnemonic of Hardhat, Foundry and Ganache gives the well-known accounts at m/44'/60'/0'/0/i.
    @Test func devMnemonicAccounts() throws {
        let master = try ExtendedPrivateKey(mnemonic: try Mnemonic(phrase: "test test test test test test test test test test test junk"))
        let expected = [
            ("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"),
            ("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"),
            ("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"),
        ]
        for (i, (address, key)) in expected.enumerated() {
            let node = try master.derive(path: .ethereum(index: UInt32(i)))
            #expect(node.address.checksummed == address)
            #expect(Hex.encode(node.privateKey.rawBytes, prefix: false) == key)
        }
        #expect(DerivationPath.ethereum(index: 7).description == "m/44'/60'/0'/0/7")
        #expect(try DerivationPath("m/44'/60'/0'/0/7") == .ethereum(index: 7))
        #expect(try DerivationPath("m/44h/60H/0'/0/7") == .ethereum(index: 7))
        #expect(throws: HDWalletError.self) { try DerivationPath("m/44'/x") }
        #expect(throws: HDWalletError.self) { try DerivationPath("m/2147483648") }
    }

    /// BIP-32 test vectors 1 and 2 (bip-0032.mediawiki, "Test Vectors"): the xprv and xpub at every path.
    static let bip32Vectors: [(seed: String, chains: [(path: String, xpub: String, xprv: String)])] = [
        ("000102030405060708090a0b0c0d0e0f", [
            ("m", "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8",
             "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"),
            ("m/0'", "xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw",
             "xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7"),
            ("m/0'/1", "xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ",
             "xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs"),
            ("m/0'/1/2'", "xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5",
             "xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM"),
            ("m/0'/1/2'/2", "xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV",
             "xprvA2JDeKCSNNZky6uBCviVfJSKyQ1mDYahRjijr5idH2WwLsEd4Hsb2Tyh8RfQMuPh7f7RtyzTtdrbdqqsunu5Mm3wDvUAKRHSC34sJ7in334"),
            ("m/0'/1/2'/2/1000000000", "xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy",
             "xprvA41z7zogVVwxVSgdKUHDy1SKmdb533PjDz7J6N6mV6uS3ze1ai8FHa8kmHScGpWmj4WggLyQjgPie1rFSruoUihUZREPSL39UNdE3BBDu76"),
        ]),
        ("fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542", [
            ("m", "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB",
             "xprv9s21ZrQH143K31xYSDQpPDxsXRTUcvj2iNHm5NUtrGiGG5e2DtALGdso3pGz6ssrdK4PFmM8NSpSBHNqPqm55Qn3LqFtT2emdEXVYsCzC2U"),
            ("m/0", "xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH",
             "xprv9vHkqa6EV4sPZHYqZznhT2NPtPCjKuDKGY38FBWLvgaDx45zo9WQRUT3dKYnjwih2yJD9mkrocEZXo1ex8G81dwSM1fwqWpWkeS3v86pgKt"),
            ("m/0/2147483647'", "xpub6ASAVgeehLbnwdqV6UKMHVzgqAG8Gr6riv3Fxxpj8ksbH9ebxaEyBLZ85ySDhKiLDBrQSARLq1uNRts8RuJiHjaDMBU4Zn9h8LZNnBC5y4a",
             "xprv9wSp6B7kry3Vj9m1zSnLvN3xH8RdsPP1Mh7fAaR7aRLcQMKTR2vidYEeEg2mUCTAwCd6vnxVrcjfy2kRgVsFawNzmjuHc2YmYRmagcEPdU9"),
            ("m/0/2147483647'/1", "xpub6DF8uhdarytz3FWdA8TvFSvvAh8dP3283MY7p2V4SeE2wyWmG5mg5EwVvmdMVCQcoNJxGoWaU9DCWh89LojfZ537wTfunKau47EL2dhHKon",
             "xprv9zFnWC6h2cLgpmSA46vutJzBcfJ8yaJGg8cX1e5StJh45BBciYTRXSd25UEPVuesF9yog62tGAQtHjXajPPdbRCHuWS6T8XA2ECKADdw4Ef"),
            ("m/0/2147483647'/1/2147483646'", "xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL",
             "xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc"),
            ("m/0/2147483647'/1/2147483646'/2", "xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt",
             "xprvA2nrNbFZABcdryreWet9Ea4LvTJcGsqrMzxHx98MMrotbir7yrKCEXw7nadnHM8Dq38EGfSh6dqA9QWTyefMLEcBYJUuekgW4BYPJcr9E7j"),
        ]),
    ]

    @Test func bip32Vectors() throws {
        var tally = ConformanceTally(suite: "BIP-32 test vectors 1-2")
        for (v, vector) in Self.bip32Vectors.enumerated() {
            let master = try ExtendedPrivateKey(seed: try Hex.decode(vector.seed))
            for chain in vector.chains {
                let node = try master.derive(path: try DerivationPath(chain.path))
                let name = "vector \(v + 1) \(chain.path)"
                tally.check(node.serialized == chain.xprv, name + " xprv", "xprv differs")
                tally.check(node.extendedPublicKey.serialized == chain.xpub, name + " xpub", "xpub differs")
                // Public derivation of the last non-hardened step gives the same xpub.
                if let last = try DerivationPath(chain.path).indices.last, last < DerivationPath.hardenedBit {
                    let parent = try master.derive(path: DerivationPath(indices: Array(try DerivationPath(chain.path).indices.dropLast())))
                    tally.check(try parent.extendedPublicKey.derive(last).serialized == chain.xpub, name + " CKDpub", "public derivation differs")
                }
                tally.check(try ExtendedPublicKey(serialized: chain.xpub) == node.extendedPublicKey, name + " xpub parse", "parsed xpub differs")
            }
        }
        tally.report()
        #expect(tally.failed == 0)
        let master = try ExtendedPrivateKey(seed: try Hex.decode(Self.bip32Vectors[0].seed))
        #expect(throws: HDWalletError.hardenedFromPublic(index: DerivationPath.hardenedBit)) {
            try master.extendedPublicKey.derive(DerivationPath.hardenedBit)
        }
        #expect(!master.description.contains("xprv"))
    }
}
