// The seed's replay scenario, kept identical to testdata/scenarios/seed-replay.json (a test compares them),
// so `carchain gas-report --seed-scenario` works from any directory.

extension Scenario {
    /// testdata/scenarios/seed-replay.json, embedded: the seed README's replay (one sender, key 0x01 × 32,
    /// deployment then 18 steps, gas limits 6,700,000 and 210,000).
    public static let seedReplayJSON = #"""
{
  "name": "seed-replay",
  "description": "The seed's replay scenario (../shared/seed-carchain/README.md): one sender, key 0x01 x 32, deploys and sends every step; 18 steps after the deployment, 4 of which revert. Gas limits as in the seed's replay.",
  "accounts": {"manager": "0x0101010101010101010101010101010101010101010101010101010101010101"},
  "deployer": "manager",
  "gasLimits": {"deploy": 6700000, "call": 210000},
  "steps": [
    {"op": "registerNewUser", "userId": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "first user", "expect": "success"},
    {"op": "registerNewUser", "userId": "I7ZgpBfkQTMaEcUrcNlrcjolez22", "from": "manager", "label": "second user", "expect": "success"},
    {"op": "registerNewUser", "userId": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "duplicate (should revert)", "expect": {"revert": "user already registered"}},
    {"op": "registerNewCar", "plate": "6789BBB", "from": "manager", "label": "car 6789BBB", "expect": "success"},
    {"op": "registerNewCar", "plate": "2353HYP", "from": "manager", "label": "car 2353HYP", "expect": "success"},
    {"op": "registerNewCar", "plate": "5432TPK", "from": "manager", "label": "car 5432TPK", "expect": "success"},
    {"op": "addCredit", "userId": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "credit": 111, "from": "manager", "label": "credit 0->111", "expect": "success"},
    {"op": "addCredit", "userId": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "credit": 5, "from": "manager", "label": "credit 111->116", "expect": "success"},
    {"op": "addCredit", "userId": "I7ZgpBfkQTMaEcUrcNlrcjolez22", "credit": 1, "from": "manager", "label": "uid2 credit 0->1", "expect": "success"},
    {"op": "rentCar", "plate": "6789BBB", "user": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "rent, rentedCars 0->1", "expect": "success"},
    {"op": "rentCar", "plate": "2353HYP", "user": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "second rent same user (revert)", "expect": {"revert": "user already renting a car"}},
    {"op": "rentCar", "plate": "2353HYP", "user": "I7ZgpBfkQTMaEcUrcNlrcjolez22", "from": "manager", "label": "uid2 rent, credit 1->0, rented 1->2", "expect": "success"},
    {"op": "returnCar", "plate": "2353HYP", "user": "I7ZgpBfkQTMaEcUrcNlrcjolez22", "from": "manager", "label": "return, rented 2->1", "expect": "success"},
    {"op": "returnCar", "plate": "6789BBB", "user": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "return, rented 1->0", "expect": "success"},
    {"op": "rentCar", "plate": "6789BBB", "user": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "rent again, rented 0->1", "expect": "success"},
    {"op": "returnCar", "plate": "6789BBB", "user": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "return again, rented 1->0", "expect": "success"},
    {"op": "rentCar", "plate": "6789BBB", "user": "I7ZgpBfkQTMaEcUrcNlrcjolez22", "from": "manager", "label": "uid2 credit 0 (revert)", "expect": {"revert": "insufficient credit"}},
    {"op": "returnCar", "plate": "6789BBB", "user": "O6fLnMnVXAUWmxdIYatVNzaE31i1", "from": "manager", "label": "return not rented (revert)", "expect": {"revert": "car not rented"}}
  ]
}
"""#

    /// The seed's replay scenario, parsed from ``seedReplayJSON``.
    public static func seedReplay() throws(ScenarioError) -> Scenario {
        try Scenario(json: Array(seedReplayJSON.utf8), source: "seed-replay.json (embedded)", defaultName: "seed-replay")
    }
}
