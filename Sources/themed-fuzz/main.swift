// `themed-fuzz TARGET [libFuzzer options] [corpus folders]`: one fuzz target under libFuzzer.
// `themed-fuzz seeds DIR`: writes each target's seed inputs to DIR/TARGET/.
// `themed-fuzz list`: the targets.
//
// `make fuzz` builds this with -sanitize=fuzzer,address and -DFUZZING, so libFuzzer drives the
// target through LLVMFuzzerRunDriver. Built without them (as by `swift build`), `themed-fuzz
// TARGET FILE...` runs each file through the target once: how a crash libFuzzer found is replayed.
import Foundation
import FuzzTargets

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: themed-fuzz TARGET [options] [corpus] | themed-fuzz seeds DIR | themed-fuzz list\n".utf8))
    exit(2)
}

switch arguments[1] {
case "list":
    for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
case "seeds":
    guard arguments.count == 3 else { exit(2) }
    for target in FuzzTarget.all {
        let folder = "\(arguments[2])/\(target.name)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (number, seed) in FuzzSeeds.seeds(for: target.name).enumerated() {
            try Data(seed).write(to: URL(fileURLWithPath: "\(folder)/seed-\(number)"))
        }
    }
default:
    guard let target = FuzzTarget.named(arguments[1]) else {
        FileHandle.standardError.write(Data("themed-fuzz: no target named \(arguments[1]); try themed-fuzz list\n".utf8))
        exit(2)
    }
    #if FUZZING
    runUnderLibFuzzer(target)
    #else
    // Replay: every file named (or inside a folder named) goes through the target once.
    var count = 0
    for path in arguments.dropFirst(2) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
        let files = isFolder.boolValue ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { "\(path)/\($0)" } : [path]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            target.run(Array(data))
            count += 1
        }
    }
    print("themed-fuzz: \(target.name): \(count) inputs replayed without a crash")
    #endif
}
