// Whether this process runs under the thread sanitizer, and the sizes of the stress and depth
// tests there. InterleavingTests compiles this file too, through a symbolic link: it cannot
// import TestSupport, which links Tomorrowland, whose names clash with TomorrowlandExplored's.

import Foundation

/// Whether this process runs under the thread sanitizer (its runtime exports `__tsan_init`).
public let runsUnderThreadSanitizer: Bool = {
    #if canImport(Darwin)
    let everyImage = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
    let everyImage: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everyImage, "__tsan_init") != nil
}()

/// The size of a stress or depth test: `full` in an ordinary run, a tenth of it under the
/// thread sanitizer, which runs such loops 5–15 times slower.
///
/// The checks keep their power there. The sanitizer reports a data race from one unordered
/// pair of accesses whatever their timing, so it needs each code path run, not a hundred
/// thousand runs of it; and a tenth of a 100,000-level chain still overflows a 64 KiB stack
/// if any step recurses. The ordinary `swift test` keeps the full sizes: the outcome races
/// need many rounds to happen, and the depth tests are named for their full depth.
public func reducedUnderThreadSanitizer(_ full: Int) -> Int {
    runsUnderThreadSanitizer ? max(1, full / 10) : full
}
