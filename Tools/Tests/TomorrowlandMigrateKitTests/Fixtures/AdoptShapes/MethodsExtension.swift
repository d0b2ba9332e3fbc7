// A static method of a `@MainActor` class, declared in an extension in another file.
extension Badge {
    static func describe(_ number: Int) -> String { "\(number)" }
}
