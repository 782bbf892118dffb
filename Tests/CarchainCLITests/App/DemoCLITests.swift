import Foundation
import Testing
import TestSupport

/// `carchain demo` from start to end on a fresh home, against tools/pyevm-node.py.
@Suite(.serialized) struct DemoCLITests {
    @Test func demoAgainstANode() throws {
        guard let cli = try NodeCLIHarness.start(for: "carchain demo test") else { return }
        defer { cli.stop() }
        let home = cli.home.appendingPathComponent("demo")
        let outcome = try cli.run(["demo", "--home", home.path], timeout: 300)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try DemoCLITests.checkDemoOutput(outcome.stdout, home: home)
    }

    /// What every demo run must show.
    static func checkDemoOutput(_ out: String, home: URL) throws {
        for heading in [
            "1. The chain and its manager", "2. The manager registers 18 cars around Puerta del Sol", "3. A user signs up: lucia@example.com",
            "4. The user adds 10 credits", "5. The user, standing in Puerta del Sol, looks for cars", "6. The user rents the nearest car, 6789BBB, 110 m away",
            "7. The user checks the profile", "8. The user returns 6789BBB", "9. Gas used by every transaction of this demo",
        ] {
            #expect(out.contains("\n" + heading), "missing \(heading)")
        }
        #expect(out.contains("role from the chain: user"))
        #expect(out.contains("renting a second car now would be refused: user already renting a car"))
        #expect(out.contains("car now -, credit 9"))
        #expect(out.contains("counters: 1 user(s), 18 cars, 0 rented"))
        for function in ["registerNewCar", "registerNewUser", "addCredit", "rentCar", "returnCar"] {
            #expect(out.range(of: "\n   │ \(function) +│ +[0-9]+ │", options: .regularExpression) != nil, "gas row \(function)")
        }
        let map = home.appendingPathComponent("fleet.svg")
        #expect(out.contains("The map is at \(map.path)"))
        #expect(out.contains("Try next"))
        #expect(out.contains("plus 1 plain ETH transfer(s) funding the user: 21000 gas"))
        let svg = try String(contentsOf: map, encoding: .utf8)
        for plate in ["6789BBB", "2353HYP", "5432TPK"] { #expect(svg.contains(">\(plate)</text>")) }
        #expect(svg.components(separatedBy: "<g class=\"car ").count - 1 == 18)
    }
}
