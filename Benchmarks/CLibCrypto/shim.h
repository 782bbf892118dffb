#ifndef CARCHAIN_CLIBCRYPTO_SHIM_H
#define CARCHAIN_CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian: libssl-dev), used only by the benchmarks as a reference: its EVP digest
// API (EVP_MD_fetch, EVP_MD_CTX_new, EVP_DigestInit_ex / Update / Final_ex) runs SHA3-256 on the same
// Keccak-f[1600] permutation as Keccak-256, in assembly on x86-64.
#include <openssl/evp.h>
#endif
