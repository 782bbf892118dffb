"""The bytecode agrees with the reference model of contracts/README.md (tools/tests/carchain_model.py)
on a fixed pseudo-random sequence of calls from the manager, bound accounts and strangers: same
success or revert reason, same events, same views."""

import random

import carchain_replay as R
from carchain_model import MAX_CREDIT, Model, Refused
from conftest import ALICE, BOB, CAROL, MANAGER, deploy_ours

OWNERS = {"alice": ALICE, "bob": BOB, "carol": CAROL}
VALID_IDS = ["u1", "u2", R.UID1, "alice", "bob", "carol"]
ODD_IDS = ["", "x" * 129, "y" * 257, "ü" * 64]  # empty, too long, beyond the decoder, 128 bytes
VALID_PLATES = ["C1", "C2", "C3", "P" * 31]
ODD_PLATES = ["", "Q" * 32, "R" * 65]
AMOUNTS = [0, 1, 1, 2, 3, MAX_CREDIT, 2**256 - 1]
OPERATIONS = 400
VIEW_EVERY = 11


def addr(key: bytes) -> str:
    return "0x" + R.address_of(key).hex()


def normalize(value):
    if isinstance(value, str) and value.startswith("0x") and len(value) == 42:
        return value.lower()
    if isinstance(value, tuple):
        return tuple(normalize(v) for v in value)
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    return value


def chain_views(cc, user_ids, plates):
    out = {n: cc.call(n) for n in ("registeredUsers", "registeredCars", "rentedCars", "availableCars")}
    for uid in user_ids:
        for fn in ("getUserCredit", "getUserCar", "isUserRegistered", "getUserAccount"):
            out[(fn, uid)] = normalize(cc.call(fn, uid))
    for plate in plates:
        out[("getCar", plate)] = cc.call("getCar", plate)
    return out


def pick_id(rng):
    return rng.choice(ODD_IDS) if rng.random() < 0.08 else rng.choice(VALID_IDS)


def pick_plate(rng):
    return rng.choice(ODD_PLATES) if rng.random() < 0.06 else rng.choice(VALID_PLATES)


def pick_sender(rng, user_id):
    """The id's own account or the manager, and now and then anybody."""
    if rng.random() < 0.1:
        return rng.choice([ALICE, BOB, CAROL])
    if user_id in OWNERS and rng.random() < 0.6:
        return OWNERS[user_id]
    return MANAGER


def random_call(rng):
    op = rng.choices(
        ["registerNewUser", "registerNewCar", "addCredit", "rentCar", "returnCar"], weights=[2, 1, 3, 6, 6]
    )[0]
    if op == "registerNewCar":
        args = (pick_plate(rng),)
        sender = MANAGER if rng.random() < 0.8 else rng.choice([ALICE, BOB])
        return sender, op, args
    user_id = pick_id(rng)
    if op == "registerNewUser":
        args = (user_id,)
    elif op == "addCredit":
        args = (user_id, rng.choice(AMOUNTS))
    else:
        args = (pick_plate(rng), user_id)
    return pick_sender(rng, user_id), op, args


# A scripted opening that reaches every outcome at least once; the random calls follow.
OPENING = [
    (MANAGER, "registerNewUser", ("u1",)),
    (ALICE, "registerNewUser", ("alice",)),
    (ALICE, "registerNewUser", ("alice2",)),  # account already has a user id
    (MANAGER, "registerNewUser", ("",)),  # empty user id
    (MANAGER, "registerNewUser", ("x" * 129,)),  # user id too long
    (MANAGER, "registerNewUser", ("y" * 257,)),  # decoder
    (MANAGER, "registerNewUser", ("u1",)),  # user already registered
    (ALICE, "registerNewCar", ("C1",)),  # caller is not the manager
    (MANAGER, "registerNewCar", ("",)),  # empty plate
    (MANAGER, "registerNewCar", ("Q" * 32,)),  # plate too long
    (MANAGER, "registerNewCar", ("C1",)),
    (MANAGER, "registerNewCar", ("C1",)),  # car already registered
    (MANAGER, "registerNewCar", ("C2",)),
    (BOB, "addCredit", ("u1", 1)),  # not user's account or manager
    (MANAGER, "addCredit", ("nobody", 1)),  # user not registered
    (MANAGER, "addCredit", ("u1", 2**256 - 1)),  # credit overflow
    (MANAGER, "rentCar", ("C1", "u1")),  # insufficient credit
    (MANAGER, "addCredit", ("u1", 2)),
    (ALICE, "addCredit", ("alice", 1)),
    (MANAGER, "rentCar", ("C9", "u1")),  # car not registered
    (MANAGER, "returnCar", ("C1", "u1")),  # car not rented
    (MANAGER, "rentCar", ("C1", "u1")),
    (ALICE, "rentCar", ("C1", "alice")),  # car already rented
    (MANAGER, "rentCar", ("C2", "u1")),  # user already renting a car
    (ALICE, "returnCar", ("C1", "alice")),  # car rented by another user
    (MANAGER, "returnCar", ("C1", "u1")),
]


def test_bytecode_agrees_with_reference_model():
    rng = random.Random(20240501)
    cc = deploy_ours()
    model = Model(manager=addr(MANAGER))
    view_ids = [u for u in VALID_IDS + ODD_IDS if len(u.encode()) <= 256]
    view_plates = [p for p in VALID_PLATES + ODD_PLATES if len(p.encode()) <= 64]
    outcomes = {"ok": 0}
    calls = OPENING + [random_call(rng) for _ in range(OPERATIONS)]
    for i, (sender, op, args) in enumerate(calls):
        where = f"call {i}: {op}{args!r} from {addr(sender)}"
        try:
            expected_events = getattr(model, op)(addr(sender), *args)
            expected_reason = None
            expected_ok = True
        except Refused as r:
            expected_ok, expected_reason, expected_events = False, r.reason, []
        tx = cc.transact(sender, op, *args)
        assert tx.ok == expected_ok, f"{where}: chain ok={tx.ok} ({tx.reason!r}), model ok={expected_ok} ({expected_reason!r})"
        if not tx.ok:
            assert tx.reason == expected_reason, f"{where}: chain reason {tx.reason!r}, model {expected_reason!r}"
            if expected_reason is None:
                assert tx.result.output == b"", where
            outcomes[expected_reason] = outcomes.get(expected_reason, 0) + 1
        else:
            outcomes["ok"] += 1
        got_events = [(e.name, normalize(e.args)) for e in tx.events]
        assert got_events == expected_events, f"{where}: events {got_events} != {expected_events}"
        if i % VIEW_EVERY == VIEW_EVERY - 1 or i == len(calls) - 1:
            assert chain_views(cc, view_ids, view_plates) == model.views(view_ids, view_plates), where
    # Every outcome must have been exercised, or the test proves little.
    for reason in (
        "ok", None, "empty user id", "user id too long", "user already registered", "account already has a user id",
        "caller is not the manager", "empty plate", "plate too long", "car already registered",
        "not user's account or manager", "user not registered", "credit overflow", "car not registered",
        "car already rented", "insufficient credit", "user already renting a car", "car not rented",
        "car rented by another user",
    ):
        assert outcomes.get(reason, 0) > 0, f"the calls never produced {reason!r}: {outcomes}"
    print(f"model agreement over {len(calls)} calls: {outcomes}")
