import Foundation
import SpotLinkFuzzTargets

// Built two ways. `scripts/fuzz.sh` builds with `--sanitize fuzzer --sanitize address -DFUZZING`:
// libFuzzer supplies `main` and calls `LLVMFuzzerTestOneInput` with the target named by
// `SPOTLINK_FUZZ_TARGET`. A plain build is a replayer: `SpotLinkFuzz TARGET FILE...` runs each
// file through the target once, which is how a crash the fuzzer saved is reproduced.

#if FUZZING
    nonisolated(unsafe) private var selected: FuzzTarget?

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
        // libFuzzer calls this from one thread only, so the lazily chosen target needs no lock.
        if selected == nil {
            let name = ProcessInfo.processInfo.environment["SPOTLINK_FUZZ_TARGET"] ?? ""
            guard let target = FuzzTarget(rawValue: name) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
                FileHandle.standardError.write(Data("Set SPOTLINK_FUZZ_TARGET to one of: \(names)\n".utf8))
                exit(2)
            }
            selected = target
        }
        selected?.run(Data(bytes: bytes, count: count))
        return 0
    }
#else
    @main
    struct Replay {
        static func main() throws {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: SpotLinkFuzz \(names) FILE...\n".utf8))
                exit(2)
            }
            for path in arguments.dropFirst() {
                target.run(try Data(contentsOf: URL(fileURLWithPath: path)))
                print("ok \(path)")
            }
        }
    }
#endif
