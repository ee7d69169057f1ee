import Foundation
import SpotifyLinkSupport
import SpotifyTesting
import Synchronization
import Testing

/// The tests' own child-process runner: what every CLI and cross-process test stands on.
@Suite("Children the tests run")
struct ChildProcessTests {
    /// A `Process` whose end came through its `terminationHandler` keeps its pipes until it is
    /// deallocated, and on Linux that was never: one read end stayed open per child, and the
    /// crash tests' hundreds of children left later tests without descriptors ("could not
    /// connect"). The reader closes what it read to the end.
    @Test func whatIsReadToTheEndIsClosed() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/echo")
        process.arguments = ["hello"]
        let out = Pipe()
        process.standardOutput = out
        let handle = out.fileHandleForReading
        async let read = ChildProcess.readToEnd(handle)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(String(decoding: await read, as: UTF8.self) == "hello\n")
        #expect(handle.fileDescriptor == -1, "the read end is still open")
    }

    /// A child that runs past its deadline is killed and named, with what it wrote: a hang fails
    /// its test instead of holding the whole run.
    @Test(.timeLimit(.minutes(1))) func aChildPastItsDeadlineIsKilledAndNamed() async throws {
        var child = ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo started; exec sleep 600"])
        child.deadline = .milliseconds(500)
        let error = await #expect(throws: ChildProcess.TimedOut.self) { try await child.run() }
        #expect(error?.command == "sh -c echo started; exec sleep 600")
        #expect(error?.output == "started\n")
    }

    /// A child that ends in time is reported as having exited, with its status.
    @Test func aChildThatEndsInTimeHasExited() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 3"]
        #expect(try await ChildProcess.start(process, deadline: .seconds(600)) == .exited)
        #expect(process.terminationStatus == 3)
    }

    /// The same for the reader that hands each chunk over as it arrives.
    @Test func whatIsReadInChunksToTheEndIsClosed() async throws {
        let pipe = Pipe()
        let handle = pipe.fileHandleForReading
        pipe.fileHandleForWriting.write(Data("chunk".utf8))
        try pipe.fileHandleForWriting.close()
        let seen = Lock(Data())
        await ChildProcess.readToEnd(handle) { chunk in seen.withLock { $0.append(chunk) } }
        #expect(seen.withLock { $0 } == Data("chunk".utf8))
        #expect(handle.fileDescriptor == -1, "the read end is still open")
    }

    /// Past the slots, a child waits until one is freed, and the slot goes to it then: two
    /// slots, three children, never more than two running.
    @Test func aChildPastTheSlotsWaitsForOneToBeFreed() async throws {
        let slots = ChildSlots(count: 2)
        let started = AsyncStream.makeStream(of: Int.self)
        let finish = (0..<3).map { _ in AsyncStream.makeStream(of: Void.self) }
        let running = Running()
        let children = (0..<3).map { index in
            Task {
                await slots.running {
                    await running.enter()
                    started.continuation.yield(index)
                    for await _ in finish[index].stream { break }
                    await running.leave()
                }
            }
        }
        var first = Set<Int>()
        for _ in 0..<2 { first.insert(try await nextElement(of: started.stream, "a child to take a slot")) }
        let third = try #require(Set(0..<3).subtracting(first).first)
        let freed = try #require(first.first)
        finish[freed].continuation.yield()
        #expect(try await nextElement(of: started.stream, "the waiting child to take the freed slot") == third)
        for index in 0..<3 { finish[index].continuation.yield() }
        for child in children { await child.value }
        #expect(await running.most == 2, "a third child ran beside two")
        #expect(await slots.peak == 2)
    }
}

/// How many bodies run at once, and the most that ever did.
private actor Running {
    private var now = 0
    private(set) var most = 0
    func enter() {
        now += 1
        most = max(most, now)
    }
    func leave() { now -= 1 }
}
