pytest_plugins = ["pinbid_kit.testing"]
