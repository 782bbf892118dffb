// GNU MP (Debian: libgmp-dev): arbitrary-precision integers, used by the MODEXP precompile (EIP-198).
#include <gmp.h>
