// PluginList: the command plugins this build of shopsh offers. Adding a plugin: its folder under
// plugins/ (Package.swift finds it) and one line here.

import Audit
import Basket
import Coupons
import Currency
import Favorites
import Orders
import Products
import Reviews
import Users
import ShellKit

/// Every plugin, in the order `help` lists them.
let allPlugins: [ShellPlugin] = [
    productsPlugin,
    reviewsPlugin,
    basketPlugin,
    favoritesPlugin,
    usersPlugin,
    ordersPlugin,
    couponsPlugin,
    currencyPlugin,
    auditPlugin,
]
