#!/usr/bin/env bash
# `make fetch-ethtests`: fetch the public Ethereum conformance suites at the pinned commits the project is
# checked against (the same ones ../shared/ethtests holds; see its PROVENANCE.md), for a clone that has no
# ../shared. Sparse, blob-filtered clones keep the download to the directories the tests read.
# Result: .ethtests/ethtests/ laid out like ../shared/ethtests; the Makefile picks it up automatically.
set -euo pipefail
cd "$(dirname "$0")/.."
ETHEREUM_TESTS_COMMIT=4c87ebbf024a3e9ec842bcce90564f629a3bcd82
LEGACY_TESTS_COMMIT=71560ecd8d6b9e8b9a4280aba66dbab762608edf
dest=.ethtests
mkdir -p "$dest"

fetch() { # repo dir commit paths...
  local repo=$1 dir=$2 commit=$3; shift 3
  if [ ! -d "$dest/$dir/.git" ]; then
    git clone --quiet --filter=blob:none --no-checkout "https://github.com/ethereum/$repo.git" "$dest/$dir"
  fi
  git -C "$dest/$dir" sparse-checkout set --no-cone "$@"
  git -C "$dest/$dir" fetch --quiet --depth 1 origin "$commit" 2>/dev/null || git -C "$dest/$dir" fetch --quiet origin
  git -C "$dest/$dir" checkout --quiet "$commit"
}

echo "==> ethereum/tests @ ${ETHEREUM_TESTS_COMMIT:0:10}"
fetch tests tests "$ETHEREUM_TESTS_COMMIT" /RLPTests /TransactionTests /KeyStoreTests /ABITests /TrieTests /BasicTests
echo "==> ethereum/legacytests @ ${LEGACY_TESTS_COMMIT:0:10}"
fetch legacytests legacytests "$LEGACY_TESTS_COMMIT" /Cancun/GeneralStateTests /Constantinople/GeneralStateTests

mkdir -p "$dest/ethtests"
for d in RLPTests TransactionTests KeyStoreTests ABITests TrieTests BasicTests; do
  ln -sfn "../tests/$d" "$dest/ethtests/$d"
done
for d in Cancun Constantinople; do ln -sfn "../legacytests/$d" "$dest/ethtests/$d"; done
echo "Vectors are in $dest/ethtests (the Makefile uses them when ../shared/ethtests is absent)."
