#if FUZZING
import Foundation
import FuzzTargets

/// libFuzzer's entry for programs that have a main of their own.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The target libFuzzer calls back into (a C callback cannot capture it).
nonisolated(unsafe) var currentTarget: FuzzTarget?

/// Hands the process to libFuzzer, which calls `target` with each input it makes. The target's
/// name (argv[1]) is dropped from what libFuzzer sees.
func runUnderLibFuzzer(_ target: FuzzTarget) -> Never {
    currentTarget = target
    var argc = CommandLine.argc - 1
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    argv?[1] = argv?[0]
    argv = argv.map { $0 + 1 }
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        currentTarget?.run(bytes)
        return 0
    }
    exit(status)
}
#endif
