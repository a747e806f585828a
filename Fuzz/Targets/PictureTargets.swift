import Dispatch
import Synchronization
import WishlistCore

/// One processor for the whole run, as the server has: its pool thread is started once.
let pictureProcessor = try! PictureProcessor(threads: 1, maxWaiting: 1)

/// An uploaded profile picture: refused with a `PictureProblem`, or two JPEGs.
@Sendable func fuzzProfilePicture(_ bytes: [UInt8]) {
    guard case .success(let picture) = waitFor({ try await pictureProcessor.process(bytes: bytes, declaredType: nil) }) else { return }
    require(isJPEG(picture.large) && isJPEG(picture.small), "a processed picture that is not two JPEGs")
}

/// A cover another server sent: refused, or two JPEGs of the fixed widths.
@Sendable func fuzzCover(_ bytes: [UInt8]) {
    guard case .success(let cover) = waitFor({ try await pictureProcessor.processCover(bytes: bytes) }) else { return }
    require(isJPEG(cover.large) && isJPEG(cover.small), "a processed cover that is not two JPEGs")
    require(cover.largeHeight > 0, "a cover of height \(cover.largeHeight)")
}

private func isJPEG(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2) == [0xFF, 0xD9]
}

/// The processor is async (its decodes run on its own thread); libFuzzer calls us synchronously.
private func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) -> Result<Value, any Error> {
    let outcome = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result = await Result { try await work() }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return outcome.withLock { $0! }
}

private extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
