"""Identity's rules, free of frameworks."""
