// Times evmone on the EVM benchmark cases, the same calls `make bench` times on carchain's EVM.
//
// This is the project's own timing harness; it contains no evmone code. It links evmone's library and
// the state host of evmone's source tree (evmone::state, built with -DEVMONE_TOOLS=ON), both built from
// evmone's source beside the project as docs/EVM.md ("evmone next to carchain") describes; tools/bench.sh
// compiles it with the command written there.
//
// The cases are prestate files written by tools/bench-evm-cases.py (cases.json lists them). Each timed run
// is what carchain's PrestateCall does: a fresh state over the prestate, caller and callee warm, a host,
// and one message call of the case's gas (no transaction around it: no intrinsic gas, nonce or fee),
// through evmone's default VM (evmc_create_evmone(): the baseline interpreter). Only the call is timed
// (state, host and message are made before the clock starts), one sample per call.
//
// Usage: bench-evmone CASES_DIR [--runs N] [--seconds S] [--only SUBSTRING]
// Prints one JSON object per case and line: key, runs, samples (ns), minNanoseconds, medianNanoseconds,
// gasUsed, status, outputBytes, outputKeccak.

#include <evmc/evmc.hpp>
#include <evmc/hex.hpp>
#include <evmone/evmone.h>
#include <nlohmann/json.hpp>
#include <test/state/hash_utils.hpp>
#include <test/state/host.hpp>
#include <test/state/state.hpp>
#include <test/state/state_view.hpp>
#include <test/utils/test_state.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace
{
using evmc::address;
using evmc::bytes;
using evmc::bytes32;
using evmone::test::TestAccount;

/// The prestate, read by evmone's state through the StateView interface. Unlike evmone's TestState (which
/// hashes an account's code every time the account is loaded), the code hash is computed once, when the
/// case is read: per call, evmone's state copies the code and its VM analyses it, as in a node.
class CaseState : public evmone::state::StateView
{
public:
    void add(const address& addr, TestAccount account)
    {
        const auto hash = account.code.empty() ? bytes32{evmone::state::Account::EMPTY_CODE_HASH} :
                                                 evmone::keccak256(account.code);
        m_accounts.insert_or_assign(addr, Entry{std::move(account), hash});
    }

    std::optional<Account> get_account(const address& addr) const noexcept override
    {
        const auto it = m_accounts.find(addr);
        if (it == m_accounts.end())
            return std::nullopt;
        const auto& a = it->second.account;
        return Account{a.nonce, a.balance, it->second.code_hash, !a.storage.empty()};
    }

    bytes get_account_code(const address& addr) const noexcept override
    {
        const auto it = m_accounts.find(addr);
        return it == m_accounts.end() ? bytes{} : it->second.account.code;
    }

    bytes32 get_storage(const address& addr, const bytes32& key) const noexcept override
    {
        const auto it = m_accounts.find(addr);
        if (it == m_accounts.end())
            return {};
        const auto slot = it->second.account.storage.find(key);
        return slot == it->second.account.storage.end() ? bytes32{} : slot->second;
    }

private:
    struct Entry
    {
        TestAccount account;
        bytes32 code_hash;
    };
    std::map<address, Entry> m_accounts;
};

[[noreturn]] void fail(const std::string& message)
{
    std::cerr << "bench-evmone: " << message << "\n";
    std::exit(1);
}

bytes parse_hex(const std::string& text, const std::string& what)
{
    auto value = evmc::from_hex(text);
    if (!value)
        fail("invalid hex in " + what);
    return *value;
}

/// A quantity written as 0x-hex or decimal.
intx::uint256 parse_quantity(const nlohmann::json& value, const std::string& what)
{
    if (value.is_number_unsigned())
        return value.get<uint64_t>();
    if (!value.is_string())
        fail(what + " is not a quantity");
    const auto text = value.get<std::string>();
    try
    {
        return intx::from_string<intx::uint256>(text);
    }
    catch (...)
    {
        fail(what + " is not a quantity: " + text);
    }
}

address parse_address(const std::string& text)
{
    const auto raw = parse_hex(text, "address " + text);
    if (raw.size() != sizeof(address::bytes))
        fail("address " + text + " is not 20 bytes");
    address result;
    std::copy(raw.begin(), raw.end(), result.bytes);
    return result;
}

bytes32 parse_word(const nlohmann::json& value, const std::string& what)
{
    return intx::be::store<bytes32>(parse_quantity(value, what));
}

std::optional<evmc_revision> revision(const std::string& fork)
{
    static const std::pair<const char*, evmc_revision> names[] = {{"Istanbul", EVMC_ISTANBUL},
        {"Berlin", EVMC_BERLIN}, {"London", EVMC_LONDON}, {"Paris", EVMC_PARIS},
        {"Shanghai", EVMC_SHANGHAI}, {"Cancun", EVMC_CANCUN}, {"Prague", EVMC_PRAGUE},
        {"Osaka", EVMC_OSAKA}};
    for (const auto& [name, rev] : names)
        if (fork == name)
            return rev;
    return std::nullopt;
}

struct Case
{
    std::string key;
    evmc_revision rev{};
    CaseState pre;
    address caller;
    address to;
    bytes input;
    int64_t gas = 0;
};

Case load_case(const std::string& path)
{
    std::ifstream file{path};
    if (!file)
        fail("cannot read " + path);
    const auto json = nlohmann::json::parse(file, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        fail(path + " is not a JSON object");
    Case c;
    c.key = json.value("key", path);
    const auto rev = revision(json.value("fork", ""));
    if (!rev)
        fail(c.key + ": unknown fork " + json.value("fork", ""));
    c.rev = *rev;
    c.caller = parse_address(json.value("caller", "0x00000000000000000000000000000000000000ca"));
    c.to = parse_address(json.at("to").get<std::string>());
    c.input = parse_hex(json.value("input", "0x"), c.key + " input");
    const auto gas = parse_quantity(json.at("gas"), c.key + " gas");
    if (gas > std::numeric_limits<int64_t>::max())
        fail(c.key + ": gas above 2^63-1");
    c.gas = static_cast<int64_t>(gas);
    for (const auto& [addr, account] : json.at("pre").items())
    {
        TestAccount a;
        a.nonce = static_cast<uint64_t>(parse_quantity(account.value("nonce", nlohmann::json("0x0")), "nonce"));
        a.balance = parse_quantity(account.value("balance", nlohmann::json("0x0")), "balance");
        a.code = parse_hex(account.value("code", "0x"), addr + " code");
        const auto storage = account.value("storage", nlohmann::json::object());
        for (const auto& [slot, value] : storage.items())
            a.storage[parse_word(slot, "storage key")] = parse_word(value, "storage value");
        c.pre.add(parse_address(addr), std::move(a));
    }
    return c;
}

struct Outcome
{
    evmc_status_code status;
    int64_t gas_used;
    bytes output;
};

/// One run: a fresh state over the prestate, caller and callee warm, the message; returns the
/// outcome and stores the nanoseconds the call took.
Outcome run_once(const Case& c, evmc::VM& vm, uint64_t& nanoseconds)
{
    evmone::state::State state{c.pre};
    evmone::state::BlockInfo block{};
    block.number = 1;
    block.timestamp = 1;
    block.gas_limit = std::max<int64_t>(c.gas, 30'000'000);
    evmone::test::TestBlockHashes hashes;
    evmone::state::Transaction tx{};
    tx.sender = c.caller;
    tx.to = c.to;
    tx.gas_limit = c.gas;
    evmone::state::Host host{c.rev, vm, state, block, hashes, tx};
    state.get_or_insert(c.caller).access_status = EVMC_ACCESS_WARM;
    host.access_account(c.to);

    evmc_message msg{};
    msg.kind = EVMC_CALL;
    msg.gas = c.gas;
    msg.sender = c.caller;
    msg.recipient = c.to;
    msg.code_address = c.to;
    msg.input_data = c.input.data();
    msg.input_size = c.input.size();

    const auto start = std::chrono::steady_clock::now();
    const auto result = host.call(msg);
    const auto stop = std::chrono::steady_clock::now();
    nanoseconds = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
    return {result.status_code, c.gas - result.gas_left,
        bytes{result.output_data, result.output_data + result.output_size}};
}
}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2)
        fail("usage: bench-evmone CASES_DIR [--runs N] [--seconds S] [--only SUBSTRING]");
    const std::string dir = argv[1];
    size_t max_runs = 100;
    double max_seconds = 2.0;
    std::string only;
    for (int i = 2; i + 1 < argc; i += 2)
    {
        const std::string option = argv[i];
        const std::string value = argv[i + 1];
        if (option == "--runs")
            max_runs = std::stoul(value);
        else if (option == "--seconds")
            max_seconds = std::stod(value);
        else if (option == "--only")
            only = value;
        else
            fail("unknown option " + option);
    }
    if (max_runs < 1)
        fail("--runs must be positive");

    std::ifstream index_file{dir + "/cases.json"};
    if (!index_file)
        fail("no " + dir + "/cases.json (write it with tools/bench-evm-cases.py)");
    const auto index = nlohmann::json::parse(index_file);
    evmc::VM vm{evmc_create_evmone()};

    for (const auto& entry : index)
    {
        const auto key = entry.at("key").get<std::string>();
        if (!only.empty() && key.find(only) == std::string::npos)
            continue;
        const auto c = load_case(dir + "/" + entry.at("file").get<std::string>());
        uint64_t ns = 0;
        const auto first = run_once(c, vm, ns);  // warm-up, not counted
        std::vector<uint64_t> samples;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
        while (samples.size() < max_runs &&
               (samples.size() < std::min<size_t>(5, max_runs) ||
                   std::chrono::steady_clock::now() < deadline))
        {
            const auto outcome = run_once(c, vm, ns);
            if (outcome.status != first.status || outcome.gas_used != first.gas_used ||
                outcome.output != first.output)
                fail(key + ": a run differs from the first");
            samples.push_back(ns);
        }
        auto sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        const auto hash = evmone::keccak256(first.output);
        nlohmann::json report = {{"key", key}, {"runs", samples.size()}, {"samples", samples},
            {"minNanoseconds", sorted.front()}, {"medianNanoseconds", sorted[sorted.size() / 2]},
            {"gasUsed", first.gas_used}, {"status", static_cast<int>(first.status)},
            {"success", first.status == EVMC_SUCCESS}, {"outputBytes", first.output.size()},
            {"outputKeccak", evmc::hex(hash)}};
        std::cout << report.dump() << std::endl;
    }
    return 0;
}
