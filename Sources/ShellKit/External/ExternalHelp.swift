// ExternalHelp: `help NAME` and `NAME --help` for an external plugin, from its description.

import ShopOutput
import PluginHost
import PluginProtocol

/// The help text of an external plugin (or of one of its commands).
enum ExternalHelp {
    /// Everything the plugin said about itself, escaped (it is the plugin's text, not ours).
    static func text(_ plugin: ExternalPlugin, description: PluginDescription,
                     command only: PluginDescription.Command? = nil) -> String {
        let e = TerminalEscaping.escape
        var text = "\(e(plugin.name)) \(e(description.version)): \(e(description.summary))\n"
        text += "(external plugin: \(e(plugin.path)))\n\nUSAGE: \(e(plugin.name)) COMMAND [OPTIONS] [ARGUMENTS]\n\nCOMMANDS:\n"
        for command in description.commands where only == nil || only == command {
            let arguments = command.arguments.map { $0.optional ? "[\($0.name.uppercased())]" : $0.name.uppercased() }
            text += "  " + ([e(command.name)] + arguments.map(e)).joined(separator: " ") + "\n"
            if !command.summary.isEmpty { text += "      \(e(command.summary))\n" }
            text += command.writes ? "      may change the shop\n" : "      read-only (declared \"writes\": false)\n"
            for argument in command.arguments {
                text += "      \(e(argument.name.uppercased()))  \(argument.kind.rawValue)\(argument.optional ? ", optional" : "")\n"
            }
            for option in command.options {
                text += "      --\(e(option.name)) \(option.kind.rawValue.uppercased())  \(e(option.summary))\n"
            }
        }
        text += "\nOutput: -o table|json|ndjson|csv|tsv, --fields a,b,…, --no-header (the shell renders the rows).\n"
        return text
    }
}
