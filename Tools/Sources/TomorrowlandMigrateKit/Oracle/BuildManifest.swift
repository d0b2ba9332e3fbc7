// SwiftPM's build manifest, read for each module's sources and compiler arguments.

import Foundation

/// Reading SwiftPM's llbuild manifest (`.build/debug.yaml`).
enum BuildManifest {
    /// The Swift modules the manifest compiles, in build order, with their arguments minus
    /// outputs, incremental-build and index-store flags (and with every source listed).
    static func modules(in text: String) -> [(compiler: String, module: ModuleInvocation)] {
        var result: [(compiler: String, module: ModuleInvocation)] = []
        var current: String?
        var inputs: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  \"C."), line.hasSuffix(".module\":") {
                // `"C.AppCore-x86_64-unknown-linux-gnu-debug.module":` (a module name has no `-`).
                current = line.dropFirst(5).split(separator: "-").first.map(String.init)
                inputs = []
            } else if current != nil, trimmed.hasPrefix("inputs: ") {
                inputs = (try? JSONSerialization.jsonObject(with: Data(trimmed.dropFirst(8).utf8))) as? [String] ?? []
            } else if let name = current, trimmed.hasPrefix("args: ") {
                current = nil
                guard let args = (try? JSONSerialization.jsonObject(with: Data(trimmed.dropFirst(6).utf8))) as? [String],
                      let first = args.first, first.hasSuffix("swiftc") else { continue }
                var (arguments, sources) = cleaned(Array(args.dropFirst()))
                // The sources as the manifest lists them: the `@…/sources` file is written by a
                // build step, stale or missing for a module `forPackage` did not build.
                let listed = inputs.filter { $0.hasSuffix(".swift") }
                if !listed.isEmpty { sources = listed }
                let dependencies = inputs.compactMap { input -> String? in
                    guard input.hasSuffix(".swiftmodule"), input.contains("/Modules/") else { return nil }
                    return ((input as NSString).lastPathComponent as NSString).deletingPathExtension
                }
                result.append((first, ModuleInvocation(name: name, sources: sources, arguments: arguments, dependencies: dependencies)))
            }
        }
        return result
    }

    /// Drops what only a build needs; reads `@file` source lists.
    static func cleaned(_ args: [String]) -> (arguments: [String], sources: [String]) {
        let single: Set<String> = [
            "-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
            "-parseable-output", "-g", "-emit-objc-header", "-whole-module-optimization", "-wmo",
        ]
        let withValue: Set<String> = ["-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-o"]
        var arguments: [String] = []
        var sources: [String] = []
        var index = 0
        while index < args.count {
            let arg = args[index]
            if arg == "-Xcc", index + 1 < args.count, args[index + 1] == "-g" { index += 2; continue }
            if single.contains(arg) { index += 1; continue }
            if withValue.contains(arg) { index += 2; continue }
            if arg.hasPrefix("@") {
                let list = (try? String(contentsOfFile: String(arg.dropFirst()), encoding: .utf8)) ?? ""
                sources += list.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else if arg.hasSuffix(".swift"), !arg.hasPrefix("-") {
                sources.append(arg)
            } else {
                arguments.append(arg)
            }
            index += 1
        }
        return (arguments, sources)
    }
}
