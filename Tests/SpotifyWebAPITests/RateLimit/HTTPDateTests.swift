import Foundation
import Testing

@testable import SpotifyWebAPI

@Suite("HTTP dates in Retry-After")
struct HTTPDateTests {
    /// Found by `scripts/fuzz.sh retry-after`: the year overflowed the day arithmetic and crashed.
    @Test(arguments: [
        "S, 03 Nov 930000000000000000 08:3:7 GMT", "Sun, 06 Nov 0 08:49:37 GMT", "Sun, 06 Nov 10000 08:49:37 GMT",
        "Sun, 06 Nov -9223372036854775808 08:49:37 GMT",
    ])
    func aYearOutsideOneToNineThousandNineHundredNinetyNineIsUnreadable(value: String) {
        #expect(HTTPDate.parse(value) == nil)
        #expect(RetryAfter.parse(value, now: Date(timeIntervalSince1970: 0)) == nil)
    }

    @Test func datesRoundTripAndExtremesFormat() throws {
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1e300)).hasSuffix("9999 23:59:59 GMT"))
    }
}
