// Writes the files generated from the callback API table, or with `--check` lists the stale ones
// (exit status 1). Run from anywhere: paths are relative to the repository holding this file.

import CallbackAPI
import Foundation

let root = ProcessInfo.processInfo.environment["GENERATOR_ROOT"].map { URL(fileURLWithPath: $0) } ?? URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let check = CommandLine.arguments.dropFirst().contains("--check")
var stale: [String] = []
for file in CallbackAPIGenerator.files() {
    let url = root.appendingPathComponent(file.path)
    let current = try? String(contentsOf: url, encoding: .utf8)
    guard current != file.contents else { continue }
    stale.append(file.path)
    if !check {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try file.contents.write(to: url, atomically: true, encoding: .utf8)
        print("wrote \(file.path)")
    }
}
if check {
    for path in stale { print("stale: \(path)") }
    if !stale.isEmpty {
        print("run `\(CallbackAPIGenerator.command)` to regenerate them from \(CallbackAPIGenerator.tablePath)")
        exit(1)
    }
} else if stale.isEmpty {
    print("every generated file is up to date")
}
