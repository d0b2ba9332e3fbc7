// Offsets of a file's text before and after edits, and the lines of offsets.

/// Where the edits of one file move its text: offsets of the original text to offsets of the
/// edited text and back. Edits must not overlap; edits at the same offset land in the order
/// given (as `TextEdit.apply` writes them).
struct EditMap {
    /// An edit with where its text lands in the edited text.
    struct Placed {
        let start: Int
        let end: Int
        let newStart: Int
        let length: Int
        /// Its index in the edits the map was made from.
        let index: Int
    }

    let placed: [Placed]

    init(_ edits: [TextEdit]) {
        var shift = 0
        placed = edits.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map { index, edit in
            let length = edit.text.utf8.count
            defer { shift += length - (edit.end - edit.start) }
            return Placed(start: edit.start, end: edit.end, newStart: edit.start + shift, length: length, index: index)
        }
    }

    /// Where the original offset `old` is in the edited text; nil when an edit replaced it.
    /// (Text inserted at `old` goes before it.)
    func newOffset(_ old: Int) -> Int? {
        var shift = 0
        for edit in placed {
            if old < edit.start { break }
            if old < edit.end { return nil }
            shift += edit.length - (edit.end - edit.start)
        }
        return old + shift
    }

    /// What an offset of the edited text was: an offset of the original text, or a place in
    /// the text of the edit with index `edit`.
    enum Origin: Equatable {
        case original(Int)
        case inserted(edit: Int, offset: Int)
    }

    func origin(of new: Int) -> Origin {
        var shift = 0
        for edit in placed {
            if new < edit.newStart { break }
            if new < edit.newStart + edit.length { return .inserted(edit: edit.index, offset: new - edit.newStart) }
            shift += edit.length - (edit.end - edit.start)
        }
        return .original(new - shift)
    }

    /// Where the text of the edit with index `edit` starts in the edited text.
    func newStart(ofEdit edit: Int) -> Int? {
        placed.first { $0.index == edit }?.newStart
    }
}

/// The UTF-8 offsets where a text's lines start: the line of an offset by binary search, for
/// callers that ask for many offsets of one text (every reference of a file).
struct LineTable {
    private let starts: [Int]

    init(_ text: String) {
        var starts = [0]
        for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.starts = starts
    }

    /// The 1-based line of a UTF-8 offset (the last line for one past the end).
    func line(of offset: Int) -> Int {
        var (low, high) = (0, starts.count) // the answer is the number of starts <= offset
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return max(low, 1)
    }
}
