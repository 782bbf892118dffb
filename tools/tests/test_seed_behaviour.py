"""What the seed contract does, observed on py-evm (it has no published source): the facts
contracts/README.md relies on where it says "as in the seed" or "the seed's bug"."""

import pytest

import carchain_replay as R
from carchain_abi import Contract
from conftest import ALICE, BOB, MANAGER


@pytest.fixture
def seed(seed_artifact):
    chain = R.LocalChain("Cancun", (MANAGER, ALICE, BOB))
    dep = chain.deploy(MANAGER, R.hexbytes(seed_artifact["bytecode"]))
    return Contract(chain, dep.contract_address, seed_artifact["abi"])


def ok(tx):
    assert tx.ok
    assert tx.result.logs == [], "the seed emits no events"


def refused(tx):
    assert not tx.ok
    assert tx.result.output == b"", "the seed reverts without a reason"


def test_unknown_ids_read_as_zero_and_empty(seed):
    assert seed.call("getUserCredit", "nobody") == 0
    assert seed.call("getUserCar", "nobody") == ""
    assert seed.call("minimumRentCredit") == 1


def test_registration(seed):
    ok(seed.transact(ALICE, "registerNewUser", "alice"))  # anyone registers any id, unbound
    ok(seed.transact(MANAGER, "registerNewUser", ""))  # empty ids are accepted
    refused(seed.transact(BOB, "registerNewUser", "alice"))
    refused(seed.transact(ALICE, "registerNewCar", "C1"))  # cars: deployer only
    ok(seed.transact(MANAGER, "registerNewCar", "C1"))
    ok(seed.transact(MANAGER, "registerNewCar", ""))  # empty plates too
    refused(seed.transact(MANAGER, "registerNewCar", "C1"))
    assert [seed.call(n) for n in ("registeredUsers", "registeredCars", "rentedCars", "availableCars")] == [2, 2, 0, 2]


def test_add_credit(seed):
    refused(seed.transact(MANAGER, "addCredit", "ghost", 5))  # needs a registered user
    ok(seed.transact(MANAGER, "registerNewUser", "u"))
    ok(seed.transact(BOB, "addCredit", "u", 3))  # from anyone
    ok(seed.transact(MANAGER, "addCredit", "u", 0))
    ok(seed.transact(MANAGER, "addCredit", "u", 2**256 - 1))  # wraps around: the seed's bug
    assert seed.call("getUserCredit", "u") == 2


def test_rent_and_return(seed):
    for uid in ("u1", "u2", "poor"):
        ok(seed.transact(MANAGER, "registerNewUser", uid))
    ok(seed.transact(MANAGER, "addCredit", "u1", 3))
    ok(seed.transact(MANAGER, "addCredit", "u2", 3))
    for plate in ("C1", "C2", "C3"):
        ok(seed.transact(MANAGER, "registerNewCar", plate))
    refused(seed.transact(MANAGER, "rentCar", "NOCAR", "u1"))
    refused(seed.transact(MANAGER, "rentCar", "C1", "ghost"))
    refused(seed.transact(MANAGER, "rentCar", "C1", "poor"))  # credit 0
    ok(seed.transact(BOB, "rentCar", "C1", "u1"))  # anyone rents for anyone
    refused(seed.transact(MANAGER, "rentCar", "C1", "u2"))  # car rented
    refused(seed.transact(MANAGER, "rentCar", "C2", "u1"))  # user renting already
    ok(seed.transact(MANAGER, "rentCar", "C2", "u2"))
    refused(seed.transact(MANAGER, "returnCar", "NOCAR", "u1"))
    refused(seed.transact(MANAGER, "returnCar", "C1", "ghost"))
    refused(seed.transact(MANAGER, "returnCar", "C3", "u1"))  # car not rented
    refused(seed.transact(MANAGER, "returnCar", "C1", "u2"))  # rented by another user
    ok(seed.transact(ALICE, "returnCar", "C1", "u1"))  # anyone returns for anyone
    assert seed.call("getUserCredit", "u1") == 2, "no refund on return"
    assert seed.call("getUserCar", "u2") == "C2"
    assert [seed.call(n) for n in ("rentedCars", "availableCars")] == [1, 2]


def test_no_car_reads_as_dash_for_registered_users(seed):
    # The seed marks "no car" with the plate "-": set at registration and again at return, while an
    # unknown id reads "". A car registered with the plate "-" therefore looks like no car at all,
    # and its renter may rent a second car (rentedCars counts both).
    ok(seed.transact(MANAGER, "registerNewUser", "u"))
    assert seed.call("getUserCar", "u") == "-"
    ok(seed.transact(MANAGER, "addCredit", "u", 5))
    ok(seed.transact(MANAGER, "registerNewCar", "C1"))
    ok(seed.transact(MANAGER, "registerNewCar", "-"))
    ok(seed.transact(MANAGER, "rentCar", "C1", "u"))
    assert seed.call("getUserCar", "u") == "C1"
    ok(seed.transact(MANAGER, "returnCar", "C1", "u"))
    assert seed.call("getUserCar", "u") == "-"
    ok(seed.transact(MANAGER, "rentCar", "-", "u"))
    ok(seed.transact(MANAGER, "rentCar", "C1", "u"))  # a second rental at once
    assert seed.call("rentedCars") == 2


def test_unknown_function(seed):
    refused(seed.transact_raw(MANAGER, bytes.fromhex("deadbeef")))


def test_long_strings_only_cost_gas(seed):
    # No length limit: a 300-byte id is not refused, it runs out of the scenario's 210,000 gas.
    tx = seed.transact(MANAGER, "registerNewUser", "x" * 300)
    assert not tx.ok and tx.gas_used == 210_000
    ok(seed.transact(MANAGER, "registerNewUser", "x" * 300, gas=1_000_000))
