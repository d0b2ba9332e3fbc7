// A static method of a `@MainActor` class, declared in an extension in another file.
extension Badge {
    static func describe(_ number: Int) -> String { "\(number)" }
}

extension Badge {
    func label(_ number: Int) -> String { text + "\(number)" }
}
