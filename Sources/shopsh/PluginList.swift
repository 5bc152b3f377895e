// PluginList: the command plugins this build of shopsh offers. Adding a plugin: one line here.

import Products
import ShellKit

/// Every plugin, in the order `help` lists them.
let allPlugins: [ShellPlugin] = [
    productsPlugin,
]
