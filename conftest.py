pytest_plugins = ["pinbid_testing.plugin"]
