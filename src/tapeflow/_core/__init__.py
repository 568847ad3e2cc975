"""The engine: tensors, variables, tapes, the reverse sweep. Private; tapeflow re-exports it."""
