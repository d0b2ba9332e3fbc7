// The promise operators that take no callback: rows of facts for the migration tool, next to the
// callback API table (Table.swift), so that everything Tools knows of an operator comes from
// this package's generator and none from a hand list in Tools.

/// A promise operator without a context-and-closure overload set, and how Tools recognises it.
public struct OtherOperator: Sendable {
    public var name: String
    public var recognition: CallbackAPI.Recognition
    /// Whether it takes an `on:` context (`delay(on:_:)`, `timeout(on:delay:)`).
    public var takesContext: Bool

    public init(_ name: String, recognised: CallbackAPI.Recognition, takesContext: Bool = false) {
        self.name = name
        self.recognition = recognised
        self.takesContext = takesContext
    }
}

/// The promise operators that are not in the callback API table.
public let otherOperatorTable: [OtherOperator] = [
    .init("delay", recognised: .withContextArgument, takesContext: true),
    .init("timeout", recognised: .withContextArgument, takesContext: true),
    .init("ignoringCancel", recognised: .byName),
    .init("requestCancelOnInvalidate", recognised: .byName),
    .init("fork", recognised: .byName),
    .init("when", recognised: .freeFunction(firstLabels: ["fulfilled", "first"])),
]
