// `--test`: the package's tests on a copy with the changes.

import Foundation

/// `--test`: the package's own tests, run on a copy of the package with the changes.
public enum ScratchPackage {
    /// Copies the package around `roots` (without hidden entries such as `.build` and `.git`)
    /// next to it, so that dependencies given by relative paths still resolve; writes
    /// `changes` into the copy; runs `swift build --build-tests` and `swift test` there (their
    /// build folder kept in the package's `.build/tomorrowland-migrate-test`, warm for the next
    /// run); removes the copy. The failure says what failed, with the end of the output.
    public static func test(_ changes: [FileChange], roots: [String]) -> Result<String, OracleUnavailable> {
        guard let package = PackageContext(roots: roots) else {
            return .failure(OracleUnavailable(description: "no Package.swift above \(roots.first ?? "the paths")"))
        }
        let root = CompilerFacts.key(package.root)
        let parent = (root as NSString).deletingLastPathComponent
        let copy = (parent as NSString).appendingPathComponent(".\((root as NSString).lastPathComponent)-tomorrowland-migrate-test")
        let files = FileManager.default
        try? files.removeItem(atPath: copy)
        defer { try? files.removeItem(atPath: copy) }
        do {
            try files.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for entry in try files.contentsOfDirectory(atPath: root) where !entry.hasPrefix(".") {
                try files.copyItem(atPath: root + "/" + entry, toPath: copy + "/" + entry)
            }
            for change in changes {
                let path = CompilerFacts.key(change.path)
                guard path.hasPrefix(root + "/") else { continue }
                try change.updated.write(toFile: copy + path.dropFirst(root.count), atomically: true, encoding: .utf8)
            }
        } catch {
            return .failure(OracleUnavailable(description: "cannot make the copy at \(copy): \(error)"))
        }
        let scratch = ["--package-path", copy, "--scratch-path", root + "/.build/tomorrowland-migrate-test"]
        let build = Process.capture("/usr/bin/env", ["swift", "build", "--build-tests"] + scratch)
        guard build.status == 0 else {
            let first = CompilerDiagnostic.errors(in: build.output).first.map(\.description) ?? tail(build.output)
            return .failure(OracleUnavailable(description: "the copy with the changes does not build: \(first)"))
        }
        let test = Process.capture("/usr/bin/env", ["swift", "test", "--skip-build"] + scratch)
        guard test.status == 0 else {
            return .failure(OracleUnavailable(description: "the package's tests fail on the copy with the changes:\n\(tail(test.output))"))
        }
        // XCTest's last total, and swift-testing's when it ran any test.
        let lines = test.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let totals = [
            lines.last { $0.hasPrefix("Executed ") },
            lines.last { $0.contains("Test run with ") && !$0.contains("with 0 tests") },
        ].compactMap { $0 }
        return .success(totals.isEmpty ? "tests passed" : totals.joined(separator: "; "))
    }

    private static func tail(_ output: String) -> String {
        output.split(separator: "\n").suffix(12).joined(separator: "\n")
    }
}
