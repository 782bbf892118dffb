import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// What the web app is configured with: the fiat price its fee estimates show, how the keystores it creates are
/// encrypted, what a new account is funded with on a development chain, how transactions are sent, and which
/// Firebase project's ID tokens it accepts.
public struct AppConfiguration: Sendable {
    /// The price of one ETH in USD, in millionths (`--eth-price 3000` → 3_000_000_000); nil: fees in ETH only.
    public var ethPriceMicros: UInt256?
    /// The KDF of the keystores the server creates (geth's standard scrypt by default).
    public var kdf: Keystore.KDF
    /// What a new account gets from dev account 0 on a development chain.
    public var fund: UInt256
    /// Gas, fees and receipts of the transactions the server sends.
    public var settings: SendSettings
    /// The Firebase project whose ID tokens the API accepts (the node's auth emulator serves `demo-carchain`).
    public var projectId: String
    /// The plates cars may be registered with.
    public var plateFormat: PlateFormat
    /// Seconds between the page's polls of the chain head when it has no WebSocket.
    public var pollInterval: Double

    public init(
        ethPriceMicros: UInt256? = nil, kdf: Keystore.KDF = .standardScrypt, fund: UInt256 = AccountSetup.oneEther,
        settings: SendSettings = SendSettings(receiptTimeout: 30), projectId: String = "demo-carchain", plateFormat: PlateFormat = .spanish,
        pollInterval: Double = 1
    ) {
        self.ethPriceMicros = ethPriceMicros
        self.kdf = kdf
        self.fund = fund
        self.settings = settings
        self.projectId = projectId
        self.plateFormat = plateFormat
        self.pollInterval = pollInterval
    }
}
