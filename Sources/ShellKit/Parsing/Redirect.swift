// Redirect: where a command line's output goes when it ends in `> FILE` or `>> FILE`.

/// An output redirection parsed from a command line (`> FILE` or `>> FILE`).
///
/// The path is exactly what the operator wrote after removing quotes and escapes; it is not
/// expanded (no `~`, no variables) and may be relative to the current directory.
public struct Redirect: Equatable, Sendable {
    /// The file to write to.
    public var path: String
    /// `true` for `>>` (append to the file), `false` for `>` (replace its contents).
    public var append: Bool

    /// Creates a redirection to `path`, appending when `append` is `true`.
    public init(path: String, append: Bool) {
        self.path = path
        self.append = append
    }
}
