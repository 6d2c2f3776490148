"""Finding the workspace, reading `voyage.toml`, and listing the files it holds."""
