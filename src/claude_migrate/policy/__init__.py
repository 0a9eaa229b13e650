"""The policy: presets, policy files, validation, and the facts a run judges code by."""
