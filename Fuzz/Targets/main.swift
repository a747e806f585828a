import CFuzzDriver
import Glibc

// `wishlist-fuzz TARGET [libFuzzer options] [corpus directories]`: one binary for every parser, so
// that the sanitized build links once (docs/fuzzing.md).
let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTargets.all[arguments[1]] else {
    let names = FuzzTargets.all.keys.sorted().joined(separator: ", ")
    print("usage: wishlist-fuzz TARGET [libFuzzer options] [corpus…]\ntargets: \(names)")
    exit(2)
}
FuzzTargets.chosen = target

// libFuzzer reads every argument as its own: the target's name is taken out first.
var libFuzzerArguments = [arguments[0]] + arguments.dropFirst(2)
var argumentPointers: [UnsafeMutablePointer<CChar>?] = libFuzzerArguments.map { strdup($0) } + [nil]
var argumentCount = CInt(libFuzzerArguments.count)
let status = argumentPointers.withUnsafeMutableBufferPointer { buffer in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argumentCount, &argv) { data, size in
        FuzzTargets.runChosen(data, size)
    }
}
exit(status)

/// libFuzzer's library defines a `main` that calls this; ours replaces that `main`, but the symbol
/// must still be there for the link.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.runChosen(data, size)
}
