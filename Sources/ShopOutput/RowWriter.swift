// RowWriter: the streaming interface a command uses to hand rows to the output layer.

/// Receives the rows of one listing, in order, and renders them as they come.
///
/// Get one from `Renderer.list(columns:options:sink:)`; call `write(_:)` per row and
/// `finish()` once at the end.
public protocol RowWriter: AnyObject {
    /// Renders one row; `row` holds one cell per column given to `Renderer.list`, in that order.
    func write(_ row: [Cell]) throws
    /// Writes any trailer (the closing `]` of a json array), flushes the sink and returns
    /// the number of rows written.
    func finish() throws -> Int
}
