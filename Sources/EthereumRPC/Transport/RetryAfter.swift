import Foundation

/// The HTTP `Retry-After` header (RFC 9110 §10.2.3), which a rate-limited node (HTTP 429) or an overloaded one (503)
/// sends to say when to come back: either a number of seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2026 07:28:00 GMT`). Read here into seconds from now, so the retry policy can wait that long
/// instead of guessing (``RetryPolicy/delay(after:retry:random:)``).
public enum RetryAfter {
    /// The wait `value` asks for, in seconds from `now` (Unix time, in seconds); nil when the value is neither form.
    /// A date in the past is 0. Seconds are whole and non-negative, as the RFC writes them; anything else (a
    /// negative number, a fraction, text) is not a wait the server asked for and is ignored.
    public static func seconds(_ value: String, now: Double) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // More than ten digits is more than 300 years: past any bound a client applies, so it saturates.
            guard text.utf8.count <= 10, let seconds = Int64(text) else { return Double(Int64.max) }
            return Double(seconds)
        }
        guard let date = httpDate(text) else { return nil }
        let wait = date - now
        return wait > 0 ? wait.rounded(.up) : 0
    }

    /// Unix time of an HTTP date: the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), and the two obsolete
    /// forms recipients must still read, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`).
    public static func httpDate(_ text: String) -> Double? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day: Int?, month: Int?, year: Int?, time: String?
        switch words.count {
        case 6 where words[5] == "GMT" && words[0].hasSuffix(","):  // IMF-fixdate
            (day, month, year, time) = (Int(words[1]), monthNumber(words[2]), Int(words[3]), words[4])
            if words[3].count != 4 { return nil }
        case 4 where words[3] == "GMT" && words[0].hasSuffix(","):  // RFC 850: DD-Mon-YY
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, parts[2].count == 2, let yy = Int(parts[2]) else { return nil }
            // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
            (day, month, year, time) = (Int(parts[0]), monthNumber(parts[1]), yy < 70 ? 2000 + yy : 1900 + yy, words[2])
        case 5:  // asctime: Mon DD HH:MM:SS YYYY
            (day, month, year, time) = (Int(words[2]), monthNumber(words[1]), Int(words[4]), words[3])
        default:
            return nil
        }
        guard let day, let month, let year, let time, (1...31).contains(day), (1...9999).contains(year) else { return nil }
        let clock = time.split(separator: ":").map { Int($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func monthNumber(_ name: String) -> Int? { months.firstIndex(of: name).map { $0 + 1 } }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's civil-from-days algorithm, inverted).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
