// FieldProjection: `--fields`, the one place that picks and orders the columns of every format.

import ShopCore

/// The columns to render and, for each, where its cell sits in an incoming row.
struct FieldProjection {
    /// The columns shown, in output order.
    let columns: [Column]
    /// For each shown column, the index of its cell in a full row.
    let sourceIndices: [Int]
    /// How many cells a full row has.
    let sourceCount: Int

    /// Selects `fields` (trimmed of spaces) from `columns`, in the order given; nil keeps all.
    ///
    /// Throws `ShopError.invalidInput` for an unknown field (listing the available ones), a
    /// field named twice, or an empty selection.
    init(columns: [Column], fields: [String]?) throws(ShopError) {
        guard let fields else {
            self.columns = columns
            self.sourceIndices = Array(columns.indices)
            self.sourceCount = columns.count
            return
        }
        let available = columns.map(\.key).joined(separator: ", ")
        var indices: [Int] = []
        for field in fields.map(\.trimmingASCIISpaces) {
            guard !field.isEmpty else {
                throw .invalidInput("an empty field name in --fields; fields: \(available)")
            }
            guard let index = columns.firstIndex(where: { $0.key == field }) else {
                throw .invalidInput("unknown field \"\(field)\"; fields: \(available)")
            }
            guard !indices.contains(index) else {
                throw .invalidInput("field \"\(field)\" is given twice")
            }
            indices.append(index)
        }
        guard !indices.isEmpty else {
            throw .invalidInput("no fields given; fields: \(available)")
        }
        self.columns = indices.map { columns[$0] }
        self.sourceIndices = indices
        self.sourceCount = columns.count
    }

    /// Catches, in debug builds, a command handing over rows that do not match its columns.
    /// Release builds render missing cells as null and ignore extra ones.
    @inline(__always)
    func checkShape(_ row: [Cell]) {
        assert(row.count == sourceCount, "a row has \(row.count) cells for \(sourceCount) columns")
    }

    /// The cell of shown column `position` in `row`; a row that is too short reads as null.
    @inline(__always)
    func cell(_ position: Int, of row: [Cell]) -> Cell {
        let index = sourceIndices[position]
        return index < row.count ? row[index] : .null
    }

    /// The shown cells of `row`, in output order.
    func project(_ row: [Cell]) -> [Cell] {
        sourceIndices.indices.map { cell($0, of: row) }
    }
}
