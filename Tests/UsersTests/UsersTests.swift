// UsersTests: tests of the users plugin (being written).
