import PropertyBased
import Testing

@testable import AppAttest

/// The project's CBOR reader: what it takes it writes back byte for byte, and everything App
/// Attest never sends (floats, tags, indefinite lengths, long forms, duplicate keys) is refused
/// with where and why, never a crash and never an allocation a claimed count asks for.
@Suite("CBOR reader (checklist row 53)")
struct CBORTests {
    /// A value made from `seed`: every kind, nested up to four deep.
    static func value(_ random: inout SplitMix, depth: Int = 0) -> CBOR {
        let kinds = depth >= 4 ? 7 : 9
        switch random.next() % UInt64(kinds) {
        case 0: return .unsigned(random.boundary())
        case 1: return .negative(random.boundary())
        case 2: return .bytes((0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 3: return .text(["", "fmt", "さくら色の朝", "🇯🇵", String(repeating: "x", count: 300)][Int(random.next() % 5)])
        case 4: return .bool(random.next() % 2 == 0)
        case 5: return .null
        case 6: return .undefined
        case 7: return .array((0..<Int(random.next() % 5)).map { _ in value(&random, depth: depth + 1) })
        default:
            var pairs: [(key: CBOR, value: CBOR)] = []
            for index in 0..<Int(random.next() % 5) {
                pairs.append((.text("k\(index)"), value(&random, depth: depth + 1)))
            }
            return .map(pairs)
        }
    }

    @Test func whatItWritesItReadsBackExactly() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SplitMix(seed: UInt64(seed))
            let value = Self.value(&random)
            let bytes = value.encoded
            let decoded = try CBOR(decoding: bytes)
            #expect(decoded == value)
            #expect(decoded.encoded == bytes)
            // Any one byte changed: refused, or read as a value that writes back to those bytes.
            var mutated = bytes
            let index = Int(random.next() % UInt64(bytes.count))
            mutated[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            if let other = try? CBOR(decoding: mutated) { #expect(other.encoded == mutated) }
        }
    }

    @Test(
        arguments: [
            ([0x18], "the data ends inside an item"),
            ([0x62, 0x61], "a string of 2 bytes where 1 are left"),
            ([0x01, 0x02], "1 bytes after the value"),
            ([0xF9, 0x3C, 0x00], "a float"),
            ([0xFB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0], "a float"),
            ([0xC2, 0x41, 0x01], "a tag"),
            ([0x5F, 0x41, 0x01, 0xFF], "an indefinite length"),
            ([0x9F, 0xFF], "an indefinite length"),
            ([0xFF], "a break outside an indefinite-length item"),
            ([0x18, 0x05], "a length or number not in its shortest form"),
            ([0x19, 0x00, 0xFF], "a length or number not in its shortest form"),
            ([0x1C], "reserved additional information 28"),
            ([0xF0], "simple value 16"),
            ([0x62, 0xC3, 0x28], "text that is not UTF-8"),
            ([0xA2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02], "a duplicate map key"),
            ([0x9B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "more than 4096 items"),
            ([0x99, 0x01, 0x00], "256 entries where 0 bytes are left"),
            ([0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "where 0 are left"),
        ] as [([UInt8], String)])
    func whatAppAttestNeverSendsIsRefused(bytes: [UInt8], why: String) {
        #expect {
            _ = try CBOR(decoding: bytes)
        } throws: { error in
            "\(error)".contains(why)
        }
    }

    @Test func nestingAndItemsAreBounded() throws {
        let deep = [UInt8](repeating: 0x81, count: 17) + [0x00]
        #expect { _ = try CBOR(decoding: deep) } throws: { "\($0)".contains("nesting deeper than 16") }
        let sixteen = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect(throws: Never.self) { _ = try CBOR(decoding: sixteen) }
        let many = CBOR.array((0..<5000).map { _ in .null }).encoded
        #expect { _ = try CBOR(decoding: many) } throws: { "\($0)".contains("items") }
    }

    @Test func integersAtTheirLimits() throws {
        #expect(try CBOR(decoding: [0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .unsigned(.max))
        #expect(try CBOR(decoding: [0x20]).int == -1)
        #expect(try CBOR(decoding: [0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]).int == Int.min + 1)
        #expect(try CBOR(decoding: [0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).int == Int.min)
        #expect(try CBOR(decoding: [0x3B, 0x80, 0, 0, 0, 0, 0, 0, 0]).int == nil, "below Int.min")
        #expect(try CBOR(decoding: [0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).int == nil)
    }
}

/// SplitMix64: the same values from the same seed, on every machine.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number near a boundary of CBOR's lengths (23, 24, 255, 256, …) or any.
    mutating func boundary() -> UInt64 {
        let edges: [UInt64] = [0, 23, 24, 255, 256, 65535, 65536, 0xFFFF_FFFF, 0x1_0000_0000, .max]
        return next() % 2 == 0 ? edges[Int(next() % UInt64(edges.count))] : next() >> (next() % 64)
    }
}
