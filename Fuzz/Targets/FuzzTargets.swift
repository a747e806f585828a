/// The parsers that read what a browser, a proxy, an upload or another server sends, by name.
/// Each takes any bytes; a parser may refuse them with an error, never crash, and what it accepts
/// must satisfy the checks its target states.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "form-body": fuzzFormBody,
        "multipart": fuzzMultipart,
        "goodreads-csv": fuzzGoodreadsCSV,
        "picture": fuzzProfilePicture,
        "cover": fuzzCover,
        "webauthn": fuzzWebAuthn,
        "nyt-json": fuzzNYTJSON,
        "openlibrary-json": fuzzOpenLibraryJSON,
        "isbn": fuzzISBN,
        "forwarded": fuzzForwarded,
        "template": fuzzTemplate,
        "config": fuzzConfig,
        "smtp-reply": fuzzSMTPReply,
        "jws": fuzzJWS,
    ]

    /// Set once by main before libFuzzer starts, read by every run after.
    nonisolated(unsafe) static var chosen: ([UInt8]) -> Void = { _ in }

    static func runChosen(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        chosen(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
}

/// A broken promise in what a parser accepted: libFuzzer saves the input as a crash.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz check failed: \(message())") }
}

/// Whether `text` holds `part`, compared as bytes: Foundation's `String.contains` traps on some
/// strings with NULs (docs/fuzzing.md, finding 2), and fuzzed text has them.
func holds(_ text: String, _ part: String) -> Bool {
    Array(text.utf8).firstRange(of: Array(part.utf8)) != nil
}
