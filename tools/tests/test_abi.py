"""Our ABI keeps every seed function with the same signature, outputs and mutability, so the
selectors equal the seed README's and a client written for the seed works unchanged."""

from carchain_abi import selectors, signature
from conftest import parse_seed_selectors

SEED_FUNCTIONS = 12


def test_seed_readme_lists_every_seed_function(seed_readme, seed_artifact):
    listed = parse_seed_selectors(seed_readme)
    assert len(listed) == SEED_FUNCTIONS
    assert listed == seed_artifact["methodIdentifiers"]


def test_selectors_equal_the_seed_readme(seed_readme, our_artifact):
    ours = selectors(our_artifact["abi"])
    for sig, sel in parse_seed_selectors(seed_readme).items():
        assert ours.get(sig) == sel, f"{sig}: seed selector {sel}, ours {ours.get(sig)}"


def test_seed_functions_keep_outputs_and_mutability(seed_artifact, our_artifact):
    ours = {signature(e): e for e in our_artifact["abi"] if e.get("type") == "function"}
    for e in seed_artifact["abi"]:
        if e.get("type") != "function":
            continue
        o = ours[signature(e)]
        assert [p["type"] for p in o["outputs"]] == [p["type"] for p in e["outputs"]], signature(e)
        assert o["stateMutability"] == e["stateMutability"], signature(e)


def test_added_functions_and_events(our_artifact):
    fns = {signature(e): [p["type"] for p in e["outputs"]] for e in our_artifact["abi"] if e.get("type") == "function"}
    assert fns["manager()"] == ["address"]
    assert fns["getCar(string)"] == ["bool", "string"]
    assert fns["isUserRegistered(string)"] == ["bool"]
    assert fns["getUserAccount(string)"] == ["address"]
    assert len(fns) == SEED_FUNCTIONS + 4
    events = {signature(e) for e in our_artifact["abi"] if e.get("type") == "event"}
    assert events == {
        "UserRegistered(string,address)",
        "CarRegistered(string)",
        "CarRented(string,string)",
        "CarReturned(string,string)",
        "CreditAdded(string,uint256,uint256)",
    }


def test_artifact_method_identifiers_match_abi(our_artifact):
    assert our_artifact["methodIdentifiers"] == selectors(our_artifact["abi"])
