import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `transform` of every element, each on a thread of its own (`DispatchQueue.concurrentPerform`),
    /// in the array's order; throws the error of the first element, in that order, that failed. For
    /// the start's work that shares nothing between its parts: reading the catalogs and compiling the
    /// templates, one language a thread, were two thirds of a start on one core.
    package func mapOnThreads<Output: Sendable, Failure: Error>(
        _ transform: @Sendable (Element) throws(Failure) -> Output
    ) throws(Failure) -> [Output] {
        let results = Mutex<[Int: Result<Output, Failure>]>([:])
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = Result { () throws(Failure) in try transform(self[index]) }
            results.withLock { $0[index] = result }
        }
        let finished = results.withLock { $0 }
        return try indices.map { index throws(Failure) in try finished[index]!.get() }
    }
}
