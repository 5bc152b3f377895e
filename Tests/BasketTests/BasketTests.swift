// BasketTests: tests of the basket plugin (being written).
