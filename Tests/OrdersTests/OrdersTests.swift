// OrdersTests: tests of the orders plugin (being written).
