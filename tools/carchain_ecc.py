"""A memoizing secp256k1 backend for eth-keys, used by the replay harness when coincurve is absent.

eth-keys' pure-Python backend needs ~15 ms per public-key recovery and py-evm recovers each
transaction's sender more than once. Signing already knows the answer, so this backend records, for
every signature it makes, the public key recovery must return and that verification succeeds; other
signatures are computed as usual (and remembered). Results are those of the native backend."""

from __future__ import annotations

from eth_keys.backends.native import NativeECCBackend
from eth_keys.datatypes import BaseSignature, PrivateKey, PublicKey, Signature

_recovered: dict[tuple[bytes, bytes], bytes] = {}
_private_to_public: dict[bytes, bytes] = {}


class CachingNativeECCBackend(NativeECCBackend):
    """NativeECCBackend with memoized recovery, verification and key derivation."""

    def ecdsa_sign(self, msg_hash: bytes, private_key: PrivateKey) -> Signature:
        signature = super().ecdsa_sign(msg_hash, private_key)
        _recovered[(msg_hash, signature.to_bytes())] = self.private_key_to_public_key(private_key).to_bytes()
        return signature

    def ecdsa_recover(self, msg_hash: bytes, signature: Signature) -> PublicKey:
        k = (msg_hash, signature.to_bytes())
        if k not in _recovered:
            _recovered[k] = super().ecdsa_recover(msg_hash, signature).to_bytes()
        return PublicKey(_recovered[k], backend=self)

    def ecdsa_verify(self, msg_hash: bytes, signature: BaseSignature, public_key: PublicKey) -> bool:
        if isinstance(signature, Signature) and _recovered.get((msg_hash, signature.to_bytes())) == public_key.to_bytes():
            return True
        return super().ecdsa_verify(msg_hash, signature, public_key)

    def private_key_to_public_key(self, private_key: PrivateKey) -> PublicKey:
        k = private_key.to_bytes()
        if k not in _private_to_public:
            _private_to_public[k] = super().private_key_to_public_key(private_key).to_bytes()
        return PublicKey(_private_to_public[k], backend=self)
