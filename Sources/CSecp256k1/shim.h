#ifndef CARCHAIN_CSECP256K1_SHIM_H
#define CARCHAIN_CSECP256K1_SHIM_H
// The system libsecp256k1 (Debian's libsecp256k1-dev) with its ECDSA public-key recovery module.
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#endif
